import { Link } from "react-router";
import { StatusTag } from "~/components/status-tag";
import { formatBps } from "./split-rules";
import type { MemberShareRow, PendingSplitTask, TrackSplitSummary } from "./split-sheet.server";

/**
 * What a member holds and is offered: the songs they have a share in (Income & Shares), and the split
 * proposals waiting for their answer (the dashboard's tasks). Each row leads to the song's split sheet.
 */

const sheetPath = (memberId: number, songId: number) => `/member/${memberId}/song-profile/${songId}#splits`;

export function SharesTable({ memberId, shares }: { memberId: number; shares: MemberShareRow[] }) {
  if (shares.length === 0) {
    return (
      <p className="text-sm text-stone-600">No shares yet. When a collaborator proposes you a share of a song, or you release your own, it is listed here.</p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">Your shares of master royalties, per song</caption>
        <thead>
          <tr className="border-b border-stone-200 text-stone-600">
            <th scope="col" className="py-2 pr-3 font-medium">
              Song
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Your share now
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Status
            </th>
            <th scope="col" className="py-2 font-medium">
              Next version
            </th>
          </tr>
        </thead>
        <tbody>
          {shares.map((row) => (
            <tr key={row.songId} className="border-b border-stone-100 align-top">
              <td className="py-2 pr-3">
                <Link to={sheetPath(memberId, row.songId)} className="font-medium text-brand-900 hover:underline">
                  {row.songTitle}
                </Link>
                <span className="block text-xs text-stone-500">
                  {row.artistName}
                  {row.isrc ? ` · ${row.isrc}` : ""}
                </span>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">
                {row.current ? formatBps(row.current.shareBps) : "—"}
                {row.current ? (
                  <span className="block text-xs text-stone-500">
                    {row.current.versionNumber ? `version ${row.current.versionNumber}, from ${row.current.effectiveFrom}` : "no split: the owner's 100%"}
                  </span>
                ) : (
                  <span className="block text-xs text-stone-500">not a party of the split in force</span>
                )}
              </td>
              <td className="py-2 pr-3">
                {row.current ? <StatusTag status={row.current.status} label={row.current.status === "pending" ? "Pending: held for you" : undefined} /> : null}
              </td>
              <td className="py-2 text-stone-700">
                {row.next ? (
                  <>
                    {formatBps(row.next.shareBps)} from {row.next.effectiveFrom}
                    <span className="block text-xs text-stone-500">
                      version {row.next.versionNumber}, {row.next.state === "proposed" ? "proposed" : "confirmed"} · {row.next.status}
                    </span>
                  </>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SplitTasks({ memberId, tasks }: { memberId: number; tasks: PendingSplitTask[] }) {
  if (tasks.length === 0) return null;
  return (
    <section aria-labelledby="split-tasks" className="rounded-xl border border-amber-200 bg-amber-50 p-4">
      <h2 id="split-tasks" className="font-semibold text-amber-950">
        Split proposals to answer
      </h2>
      <ul className="mt-2 space-y-1.5 text-sm">
        {tasks.map((task) => (
          <li key={task.partyId}>
            <Link to={sheetPath(memberId, task.songId)} className="font-medium text-amber-950 underline">
              {formatBps(task.shareBps)} of “{task.songTitle}” by {task.artistName}
            </Link>{" "}
            <span className="text-amber-900">
              (version {task.versionNumber}, from {task.effectiveFrom})
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The release profile's view of its tracks' splits: who shares each song now and what is coming. */
export function ReleaseSplitsSummary({
  tracks,
  summaries,
  songPath,
}: {
  tracks: Array<{ songId: number; position: number; title: string }>;
  summaries: TrackSplitSummary[];
  songPath: (songId: number) => string;
}) {
  if (tracks.length === 0) return <p className="text-sm text-stone-600">Add tracks to see their splits here.</p>;
  return (
    <ol className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label="Splits of the tracks">
      {tracks.map((track) => {
        const summary = summaries.find((s) => s.songId === track.songId);
        return (
          <li key={track.songId} className="flex flex-col gap-1 p-3 text-sm sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              <Link to={`${songPath(track.songId)}#splits`} className="font-medium text-brand-900 hover:underline">
                {track.position}. {track.title}
              </Link>
              <p className="text-stone-700">
                {summary?.inForce
                  ? summary.inForce.parties.map((p) => `${p.name} ${formatBps(p.shareBps)}${p.status === "pending" ? " (held)" : ""}`).join(" · ")
                  : "No split: the artist page's owner receives 100%."}
              </p>
            </div>
            <p className="shrink-0 text-xs text-stone-500 sm:text-right">
              {summary?.inForce ? `Version ${summary.inForce.number}, from ${summary.inForce.effectiveFrom}` : null}
              {summary?.upcoming ? (
                <span className="block text-amber-800">
                  Version {summary.upcoming.number} {summary.upcoming.state === "proposed" ? "proposed" : "confirmed"} from {summary.upcoming.effectiveFrom}
                  {summary.upcoming.pendingAnswers
                    ? `, ${summary.upcoming.pendingAnswers} answer${summary.upcoming.pendingAnswers === 1 ? "" : "s"} awaited`
                    : ""}
                </span>
              ) : null}
            </p>
          </li>
        );
      })}
    </ol>
  );
}
