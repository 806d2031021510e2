import { Link } from "react-router";
import { DateTime, Money } from "~/components/formatting";
import { StatusTag } from "~/components/status-tag";
import { card, linkClass } from "./work-request-page-parts";

export interface EstimateView {
  id: number;
  version: number;
  status: string;
  lineItems: Array<{ description: string; amountCents: number }>;
  totalCents: number;
  deliveryDays: number;
  revisionsIncluded: number;
  pointsBps: number | null;
  expiresAt: string;
  expired: boolean;
  note: string | null;
  responseNote: string | null;
  createdAt: string;
}

export interface RequestPageData {
  area: "member" | "admin";
  base: string;
  viewerId: number;
  canAct: boolean;
  role: "client" | "provider" | "admin";
  request: {
    id: number;
    service: string;
    serviceLabel: string;
    status: string;
    description: string;
    referenceLinks: string[];
    budgetCents: number;
    deadline: string;
    songId: number | null;
    song: { title: string; version: string } | null;
    createdAt: string;
  };
  provider: { id: number; name: string; type: string; username: string };
  client: { id: number; name: string };
  estimates: EstimateView[];
  project: { id: number; status: string } | null;
}

/** The request's song by its title, linked for those who may open its page (the client, an administrator). */
export function SongName({ data }: { data: RequestPageData }) {
  const r = data.request;
  if (!r.songId || !r.song) return <>None</>;
  const title = r.song.version ? `${r.song.title} (${r.song.version})` : r.song.title;
  const href = data.area === "admin" ? `/admin/song-profile/${r.songId}` : data.role === "client" ? `${data.base}/song-profile/${r.songId}` : null;
  return href ? (
    <Link to={href} className={linkClass}>
      {title}
    </Link>
  ) : (
    <>{title}</>
  );
}

export function RequestSummary({ data }: { data: RequestPageData }) {
  const r = data.request;
  return (
    <section aria-label="Request" className={card}>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="text-stone-600">Status</dt>
        <dd>
          <StatusTag status={r.status} />
        </dd>
        <dt className="text-stone-600">Service</dt>
        <dd>{r.serviceLabel}</dd>
        <dt className="text-stone-600">Client</dt>
        <dd>{data.role === "client" ? "You" : data.client.name}</dd>
        <dt className="text-stone-600">Provider</dt>
        <dd>{data.role === "provider" ? `${data.provider.name} (your profile)` : data.provider.name}</dd>
        <dt className="text-stone-600">Budget</dt>
        <dd className="tabular-nums">
          <Money cents={r.budgetCents} />
        </dd>
        <dt className="text-stone-600">Deadline</dt>
        <dd>
          <DateTime iso={`${r.deadline}T00:00:00Z`} />
        </dd>
        <dt className="text-stone-600">Song</dt>
        <dd className="break-words">
          <SongName data={data} />
        </dd>
        <dt className="text-stone-600">Sent</dt>
        <dd>
          <DateTime iso={r.createdAt} withTime />
        </dd>
      </dl>
      <h2 className="mt-4 text-sm font-semibold text-stone-800">Description</h2>
      <p className="mt-1 text-sm whitespace-pre-wrap break-words text-stone-900">{r.description}</p>
      {r.referenceLinks.length ? (
        <>
          <h2 className="mt-4 text-sm font-semibold text-stone-800">Reference links</h2>
          <ul className="mt-1 space-y-1 text-sm">
            {r.referenceLinks.map((l) => (
              <li key={l}>
                <a href={l} target="_blank" rel="nofollow noopener noreferrer ugc" className={`${linkClass} break-all`}>
                  {l}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export function ProjectNotice({ data }: { data: RequestPageData }) {
  if (!data.project) return null;
  return (
    <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
      The estimate was accepted: project #{data.project.id} is open.{" "}
      <Link to={`${data.base}/project/${data.project.id}`} className={linkClass}>
        Open project #{data.project.id}
      </Link>
    </p>
  );
}
