import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { centredPosition, openSharePopup, type HostWindow, type PopupWindow } from "./share-popup";

/** A browser window with a fake window.open and the (faked) timers. */
function fakeHost(options: { blocked?: boolean } = {}) {
  const focus = vi.fn<() => void>();
  const popup: PopupWindow = { closed: false, opener: "the page", location: { href: "about:blank" }, focus };
  const open = vi.fn((_url: string, _target: string, _features: string) => (options.blocked ? null : popup));
  const host: HostWindow = {
    open,
    screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, availLeft: 0, availTop: 40 },
    setInterval: (handler, ms) => setInterval(handler, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
  };
  return { host, open, popup, focus };
}

describe("openSharePopup", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens a 626x436 window centred on the screen, cut off from this page, then loads the share address", () => {
    const { host, open, popup, focus } = fakeHost();
    openSharePopup(host, "https://www.facebook.com/sharer/sharer.php?u=x", { name: "share-facebook" });
    expect(open).toHaveBeenCalledTimes(1);
    const [url, target, features] = open.mock.calls[0]!;
    expect(url).toBe("about:blank");
    expect(target).toBe("share-facebook");
    expect(features).toContain("width=626,height=436");
    // (1920 - 626) / 2 = 647; 40 + (1040 - 436) / 2 = 342
    expect(features).toContain("left=647,top=342");
    expect(popup.opener).toBeNull();
    expect(popup.location.href).toBe("https://www.facebook.com/sharer/sharer.php?u=x");
    expect(focus).toHaveBeenCalled();
  });

  it("honours a custom size", () => {
    const { host, open } = fakeHost();
    openSharePopup(host, "https://x.com/intent/tweet", { name: "share-twitter", width: 800, height: 600 });
    expect(open.mock.calls[0]![2]).toContain("width=800,height=600,left=560,top=260");
  });

  it("checks every 500 ms and reports the close once, then stops checking", () => {
    const { host, popup } = fakeHost();
    const onClose = vi.fn();
    const clear = vi.spyOn(host, "clearInterval");
    openSharePopup(host, "https://x.com/intent/tweet", { name: "share-twitter", onClose });

    vi.advanceTimersByTime(499);
    popup.closed = true;
    expect(onClose).not.toHaveBeenCalled();
    // The first check comes at 500 ms.
    vi.advanceTimersByTime(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(clear).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps checking while the popup stays open", () => {
    const { host, popup } = fakeHost();
    const onClose = vi.fn();
    openSharePopup(host, "https://x.com/intent/tweet", { name: "share-twitter", onClose });
    vi.advanceTimersByTime(500 * 10);
    expect(onClose).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(1);
    popup.closed = true;
    vi.advanceTimersByTime(500);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("stop() ends the checks without reporting a close", () => {
    const { host, popup } = fakeHost();
    const onClose = vi.fn();
    const handle = openSharePopup(host, "https://x.com/intent/tweet", { name: "share-twitter", onClose });
    handle.stop();
    popup.closed = true;
    vi.advanceTimersByTime(2000);
    expect(onClose).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a blocked popup gives no window and no timer", () => {
    const { host } = fakeHost({ blocked: true });
    const handle = openSharePopup(host, "https://x.com/intent/tweet", { name: "share-twitter" });
    expect(handle.window).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("centredPosition", () => {
  it("falls back to the full screen size and never goes negative", () => {
    expect(centredPosition({ width: 1000, height: 800 }, 626, 436)).toEqual({ left: 187, top: 182 });
    expect(centredPosition({ width: 400, height: 300 }, 626, 436)).toEqual({ left: 0, top: 0 });
  });
});
