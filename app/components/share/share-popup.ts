/**
 * The share popup: a 626x436 window centred on the screen, checked every 500 ms until
 * the user closes it. Written against a minimal window shape so it can be tested with fake timers and a
 * fake window.open.
 */

export const SHARE_POPUP_WIDTH = 626;
export const SHARE_POPUP_HEIGHT = 436;
export const SHARE_POPUP_POLL_MS = 500;

export interface PopupWindow {
  closed: boolean;
  opener: unknown;
  location: { href: string } | Location;
  focus(): void;
}

export interface HostWindow {
  open(url: string, target: string, features: string): PopupWindow | null;
  screen: { width: number; height: number; availWidth?: number; availHeight?: number; availLeft?: number; availTop?: number };
  setInterval(handler: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}

export interface SharePopupHandle {
  /** The window (null when the browser blocked it). */
  window: PopupWindow | null;
  /** Stops watching (on unmount, or when another share replaces this one); does not close the window. */
  stop(): void;
}

/** Left/top that centre a `width` x `height` window on the (available part of the) screen. */
export function centredPosition(screen: HostWindow["screen"], width: number, height: number): { left: number; top: number } {
  const screenWidth = screen.availWidth ?? screen.width;
  const screenHeight = screen.availHeight ?? screen.height;
  return {
    left: Math.max(0, Math.round((screen.availLeft ?? 0) + (screenWidth - width) / 2)),
    top: Math.max(0, Math.round((screen.availTop ?? 0) + (screenHeight - height) / 2)),
  };
}

/**
 * Opens `url` in a named popup and calls `onClose` once the user has closed it. The popup starts blank
 * and loses its `opener` before it navigates, so the shared site cannot script this page (the usual
 * `noopener` would hide the window from us and we could not tell when it closes).
 */
export function openSharePopup(
  host: HostWindow,
  url: string,
  options: { name: string; width?: number; height?: number; onClose?: () => void },
): SharePopupHandle {
  const width = options.width ?? SHARE_POPUP_WIDTH;
  const height = options.height ?? SHARE_POPUP_HEIGHT;
  const { left, top } = centredPosition(host.screen, width, height);
  const features = `popup=yes,width=${width},height=${height},left=${left},top=${top},scrollbars=yes,resizable=yes`;
  const popup = host.open("about:blank", options.name, features);
  if (!popup) return { window: null, stop: () => {} };
  popup.opener = null;
  popup.location.href = url;
  popup.focus();

  let timer: unknown = host.setInterval(() => {
    if (!popup.closed) return;
    stop();
    options.onClose?.();
  }, SHARE_POPUP_POLL_MS);

  function stop() {
    if (timer === undefined) return;
    host.clearInterval(timer);
    timer = undefined;
  }
  return { window: popup, stop };
}
