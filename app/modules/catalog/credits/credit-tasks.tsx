import { Link } from "react-router";
import { CREDIT_ROLE_LABELS } from "./credit-labels";
import type { PendingCreditTask } from "./credits.server";

/** The dashboard's credit invitations waiting for the member's answer, each opening its invitation page. */
export function CreditTasks({ tasks }: { tasks: PendingCreditTask[] }) {
  if (tasks.length === 0) return null;
  return (
    <section id="credit-invitations" aria-labelledby="credit-tasks" className="scroll-mt-20 rounded-xl border border-amber-200 bg-amber-50 p-4">
      <h2 id="credit-tasks" className="font-semibold text-amber-950">
        Credits to answer
      </h2>
      <ul className="mt-2 space-y-1.5 text-sm">
        {tasks.map((task) => (
          <li key={task.id}>
            <Link to={task.href} className="font-medium break-words text-amber-950 underline">
              {CREDIT_ROLE_LABELS[task.role]} on “{task.songTitle}” by {task.artistName}
            </Link>
            {task.inviterName ? <span className="text-amber-900"> (from {task.inviterName})</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
