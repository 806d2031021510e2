// The app-update pieces the page shows; the service worker side lives in
// service-worker.client.tsx.

/** The confirm dialog's text, exactly as the specification's error catalogue words it. */
export const UPDATE_PROMPT_TEXT = "New version available! Would you like to update?";

/** sessionStorage key of the new-version-available flag ("true" once the user accepted an update); read by What's new. */
export const NEW_VERSION_FLAG_KEY = "backline:new-version";

/** Asks the user whether to update now. */
export function confirmUpdate(): boolean {
  return window.confirm(UPDATE_PROMPT_TEXT);
}

export function setNewVersionFlag() {
  try {
    sessionStorage.setItem(NEW_VERSION_FLAG_KEY, "true");
  } catch {
    // Storage disabled: What's new simply does not open.
  }
}

/** The full-screen loader that replaces the app from the user's "yes" until the page reloads. */
export function UpdatingOverlay() {
  return (
    <div
      role="status"
      aria-live="assertive"
      className="fixed inset-0 z-[2147483647] flex flex-col items-center justify-center gap-4 bg-stone-50 text-stone-900"
      data-testid="updating-overlay"
    >
      <span aria-hidden="true" className="size-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-800" />
      <p className="text-lg font-semibold">Updating...</p>
    </div>
  );
}
