import { Link } from "react-router";
import type { DataColumn } from "~/components/data-table";
import { DateTime, Money } from "~/components/formatting";
import { StatusTag, statusStyle } from "~/components/status-tag";
import { linkClass } from "./work-request-page-parts";

const STATUSES = ["pending", "awaiting_approval", "revision_requested", "accepted", "declined", "canceled"] as const;
export const statusOptions = [{ value: "", label: "Any status" }, ...STATUSES.map((s) => ({ value: s, label: statusStyle(s).label }))];

export interface ListRow {
  id: number;
  service: string;
  status: string;
  budgetCents: number;
  estimateCents: number | null;
  deadline: string;
  createdAt: string;
  clientName: string;
  providerName: string;
}

export interface ListData {
  rows: ListRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export function listColumns(base: string, who: "client" | "provider" | "both"): Array<DataColumn<ListRow>> {
  return [
    {
      key: "id",
      header: "Request",
      rowHeader: true,
      cell: (r) => (
        <Link to={`${base}/work-request/${r.id}`} className={linkClass}>
          #{r.id} {r.service}
        </Link>
      ),
    },
    ...(who !== "client"
      ? [
          {
            key: "client",
            header: "Client",
            cell: (r: ListRow) => r.clientName,
          },
        ]
      : []),
    ...(who !== "provider"
      ? [
          {
            key: "provider",
            header: "Provider",
            cell: (r: ListRow) => r.providerName,
          },
        ]
      : []),
    {
      key: "status",
      header: "Status",
      cell: (r) => <StatusTag status={r.status} />,
    },
    {
      key: "budget",
      header: "Budget",
      align: "right",
      cell: (r) => <Money cents={r.budgetCents} />,
    },
    {
      key: "estimate",
      header: "Estimate",
      align: "right",
      cell: (r) => (r.estimateCents === null ? "—" : <Money cents={r.estimateCents} />),
    },
    {
      key: "deadline",
      header: "Deadline",
      cell: (r) => <DateTime iso={`${r.deadline}T00:00:00Z`} />,
    },
    {
      key: "created",
      header: "Sent",
      cell: (r) => <DateTime iso={r.createdAt} />,
    },
  ];
}
