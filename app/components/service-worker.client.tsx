// Registers the service worker (/sw.js, built from app/sw/sw.ts) in production builds, after hydration,
// and runs its update flow: a waiting new version -> confirm -> SKIP_WAITING,
// the new-version flag, the 'Updating...' loader, one reload when the new worker takes control.
// Also asks the worker to drop its runtime caches when a logout form is submitted.
// A `.client` module: on the server its exports are undefined, so the root renders it only when defined.
import { useEffect, useState } from "react";
import { CLEAR_CACHES, SKIP_WAITING } from "~/sw/messages";
import { confirmUpdate, setNewVersionFlag, UpdatingOverlay } from "./update-prompt";

export const SERVICE_WORKER_URL = "/sw.js";

/** True for a form action (absolute or relative URL) that ends with /logout. */
export function isLogoutAction(action: string | null | undefined): boolean {
  if (!action) return false;
  try {
    return /\/logout\/?$/.test(new URL(action, "http://backline.invalid").pathname);
  } catch {
    return false;
  }
}

/** Where a submit goes: the submitter's formaction when it has one, else the form's action. */
function submitAction(event: SubmitEvent): string | null {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return null;
  const submitter = event.submitter;
  if ((submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) && submitter.hasAttribute("formaction")) {
    return submitter.formAction;
  }
  return form.action;
}

/** Reloads happen once per page, whatever fires first (controllerchange, activated, redundant). */
let reloading = false;

/**
 * Starts watching; returns the cleanup. Registration errors are swallowed: without
 * a worker the app works as before.
 */
export function startServiceWorker({ onUpdating }: { onUpdating: () => void }): () => void {
  const container = navigator.serviceWorker;
  let stopped = false;
  let accepted = false;
  let registration: ServiceWorkerRegistration | undefined;
  const asked = new WeakSet<ServiceWorker>();

  const reloadOnce = () => {
    if (!accepted || reloading) return;
    reloading = true;
    window.location.reload();
  };

  const offerUpdate = (worker: ServiceWorker) => {
    if (stopped || accepted || asked.has(worker)) return;
    asked.add(worker);
    if (!confirmUpdate()) return;
    accepted = true;
    setNewVersionFlag();
    onUpdating();
    // Normally controllerchange reloads; a page no worker controls (after a hard reload) never gets one.
    worker.addEventListener("statechange", () => {
      if (worker.state === "activated" || worker.state === "redundant") reloadOnce();
    });
    worker.postMessage({ type: SKIP_WAITING });
  };

  const watchInstalling = (reg: ServiceWorkerRegistration) => {
    const installing = reg.installing;
    if (!installing) return;
    installing.addEventListener("statechange", () => {
      // A first install (no controller yet) is not an update.
      if (installing.state === "installed" && container.controller) offerUpdate(installing);
    });
  };

  const onSubmit = (event: SubmitEvent) => {
    if (!isLogoutAction(submitAction(event))) return;
    const worker = registration?.active ?? container.controller;
    worker?.postMessage({ type: CLEAR_CACHES });
  };

  const register = () => {
    container
      .register(SERVICE_WORKER_URL, { scope: "/" })
      .then((reg) => {
        if (stopped) return;
        registration = reg;
        if (reg.waiting) offerUpdate(reg.waiting);
        // An update the browser started on this navigation, before we were listening.
        if (reg.installing) watchInstalling(reg);
        reg.addEventListener("updatefound", () => watchInstalling(reg));
      })
      .catch(() => {
        // Swallowed on purpose.
      });
  };

  container.addEventListener("controllerchange", reloadOnce);
  window.addEventListener("submit", onSubmit, true);
  // After the page's own loading, so precaching does not compete with it.
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });

  return () => {
    stopped = true;
    container.removeEventListener("controllerchange", reloadOnce);
    window.removeEventListener("submit", onSubmit, true);
    window.removeEventListener("load", register);
  };
}

/** Rendered once by the root; nothing on screen until the user agrees to update. */
export function ServiceWorkerRegistrar() {
  const [updating, setUpdating] = useState(false);
  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    return startServiceWorker({ onUpdating: () => setUpdating(true) });
  }, []);
  return updating ? <UpdatingOverlay /> : null;
}
