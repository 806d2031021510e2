import { Form } from "react-router";
import { SubmitButton } from "~/components/forms";

/** The admin review page's list of a release's delivery packages, with the form that builds a new one. */

export interface DeliveryItem {
  id: number;
  messageId: string;
  createdAt: string;
  bytes: number;
  sha256: string;
  href: string;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function DeliveriesSection({ deliveries, canBuild }: { deliveries: DeliveryItem[]; canBuild: boolean }) {
  return (
    <div className="space-y-4">
      {deliveries.length ? (
        <ul className="divide-y divide-stone-200 rounded-md border border-stone-200 text-sm" aria-label="Delivery packages">
          {deliveries.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span className="min-w-0">
                <span className="font-medium break-all">{d.messageId}</span>
                <span className="block text-xs text-stone-500">
                  {new Date(d.createdAt).toLocaleString("en-US", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" })} UTC · {size(d.bytes)} · SHA-256{" "}
                  <span className="font-mono">{d.sha256.slice(0, 16)}…</span>
                </span>
              </span>
              <a
                href={d.href}
                download
                className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50"
              >
                Download<span className="sr-only"> {d.messageId}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-stone-600">No package yet: one is built when the release is approved.</p>
      )}
      {canBuild ? (
        <Form method="post">
          <SubmitButton name="intent" value="build-package" pendingLabel="Building…">
            Build a new package
          </SubmitButton>
        </Form>
      ) : null}
    </div>
  );
}
