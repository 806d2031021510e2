import { useRef } from "react";
import { useLocation, useNavigation } from "react-router";
import type { FlashMessage } from "~/modules/flash/flash.server";

const STYLES: Record<FlashMessage["kind"], string> = {
  success: "border-green-200 bg-green-50 text-green-900",
  info: "border-sky-200 bg-sky-50 text-sky-900",
  error: "border-red-200 bg-red-50 text-red-900",
};

/**
 * The message on screen: it stays until the page changes (another address) or a form is sent. The page's own
 * load spends the flash cookie, so a later reload of the same page's data (a live notification revalidates it)
 * reads none; without this the message would vanish a moment after it appeared.
 */
function useShownFlash(flash: FlashMessage | null): FlashMessage | null {
  const location = useLocation();
  const submitting = useNavigation().state === "submitting";
  const shown = useRef<{ key: string; flash: FlashMessage | null; dismissed: FlashMessage | null }>({ key: location.key, flash, dismissed: null });
  const current = shown.current;
  if (submitting) {
    // Sent again: the old message goes, and does not come back from the data still on screen while it loads.
    if (current.flash) shown.current = { key: location.key, flash: null, dismissed: current.flash };
  } else if (flash && flash !== current.dismissed) {
    if (flash !== current.flash) shown.current = { key: location.key, flash, dismissed: null };
  } else if (current.key !== location.key) {
    shown.current = { key: location.key, flash: null, dismissed: current.dismissed };
  }
  return shown.current.flash;
}

/** The live region is always in the page, so screen readers announce a message when it appears. */
export function FlashBanner({ flash: loaded, className = "mx-auto max-w-md px-4 pt-6" }: { flash: FlashMessage | null; className?: string }) {
  const flash = useShownFlash(loaded);
  return (
    <div role="status" aria-live="polite" className={flash ? className : "sr-only"}>
      {flash ? <p className={`rounded-md border px-3 py-2 text-sm ${STYLES[flash.kind]}`}>{flash.message}</p> : null}
    </div>
  );
}
