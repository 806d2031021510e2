import { Link } from "react-router";
import { StatusTag } from "~/components/status-tag";
import { formatBps } from "./split-rules";
import type { MemberShareRow, PendingSplitTask } from "./split-sheet.server";

/**
 * What a member holds and is offered: the songs they have a share in (Income & Shares), and the split
 * proposals waiting for their answer (the dashboard's tasks). Each row leads to the song's split sheet.
 */

const sheetPath = (memberId: number, songId: number) => `/member/${memberId}/song-profile/${songId}#splits`;

export function SharesTable({ memberId, shares }: { memberId: number; shares: MemberShareRow[] }) {
  if (shares.length === 0) {
    return <p className="text-sm text-stone-600">No shares yet. When a collaborator proposes you a share of a song, or you release your own, it is listed here.</p>;
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
                  <span className="block text-xs text-stone-500">{row.current.versionNumber ? `version ${row.current.versionNumber}, from ${row.current.effectiveFrom}` : "no split: the owner's 100%"}</span>
                ) : (
                  <span className="block text-xs text-stone-500">not a party of the split in force</span>
                )}
              </td>
              <td className="py-2 pr-3">{row.current ? <StatusTag status={row.current.status} label={row.current.status === "pending" ? "Pending: held for you" : undefined} /> : null}</td>
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
            <span className="text-amber-900">(version {task.versionNumber}, from {task.effectiveFrom})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
