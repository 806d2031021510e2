import type { FlashMessage } from "~/modules/flash/flash.server";

const STYLES: Record<FlashMessage["kind"], string> = {
  success: "border-green-200 bg-green-50 text-green-900",
  info: "border-sky-200 bg-sky-50 text-sky-900",
  error: "border-red-200 bg-red-50 text-red-900",
};

/** The live region is always in the page, so screen readers announce a message when it appears. */
export function FlashBanner({ flash, className = "mx-auto max-w-md px-4 pt-6" }: { flash: FlashMessage | null; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={flash ? className : "sr-only"}>
      {flash ? <p className={`rounded-md border px-3 py-2 text-sm ${STYLES[flash.kind]}`}>{flash.message}</p> : null}
    </div>
  );
}
