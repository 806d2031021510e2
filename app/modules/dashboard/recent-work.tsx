import { Link } from "react-router";
import { DateTime, Money } from "~/components/formatting";
import { StatusTag } from "~/components/status-tag";
import { SERVICE_LABELS } from "~/modules/marketplace/marketplace-rules";
import type { DashboardProject, DashboardWorkRequest } from "./member-dashboard.server";

/** The dashboard's recent projects and work requests: open ones first, each leading to its page. */
export function RecentWork({ base, projects, workRequests }: { base: string; projects: DashboardProject[]; workRequests: DashboardWorkRequest[] }) {
  return (
    <div className="space-y-4 text-sm">
      {projects.length ? (
        <section aria-labelledby="recent-projects">
          <h3 id="recent-projects" className="mb-1 font-semibold text-stone-800">
            Projects
          </h3>
          <ul className="divide-y divide-stone-200">
            {projects.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <Link to={`${base}/project/${p.id}`} className="font-medium text-brand-800 underline">
                    {SERVICE_LABELS[p.service]} {p.role === "client" ? "by" : "for"} {p.counterpart}
                  </Link>
                  <span className="block text-xs text-stone-500">
                    <Money cents={p.amount_cents} /> · updated <DateTime iso={p.updated_at} />
                  </span>
                </span>
                <StatusTag status={p.status} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {workRequests.length ? (
        <section aria-labelledby="recent-work-requests">
          <h3 id="recent-work-requests" className="mb-1 font-semibold text-stone-800">
            Work requests
          </h3>
          <ul className="divide-y divide-stone-200">
            {workRequests.map((w) => (
              <li key={w.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <Link to={`${base}/work-request/${w.id}`} className="font-medium text-brand-800 underline">
                    {SERVICE_LABELS[w.service]} {w.role === "client" ? "asked of" : "from"} {w.counterpart}
                  </Link>
                  <span className="block text-xs text-stone-500">
                    Budget <Money cents={w.budget_cents} /> · due <DateTime iso={`${w.deadline}T00:00:00Z`} />
                  </span>
                </span>
                <StatusTag status={w.status} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="flex gap-4">
        <Link to={`${base}/projects`} className="font-medium text-brand-800 underline">
          All projects
        </Link>
        <Link to={`${base}/work-requests`} className="font-medium text-brand-800 underline">
          All work requests
        </Link>
      </p>
    </div>
  );
}
