import { useCallback, useEffect, useRef } from "react";
import { useFetchers, useNavigation, useRevalidator } from "react-router";
import { useRealtimeEvent } from "./realtime";

/**
 * A function that reloads the page's data (loaders), now or, while a navigation or a form submission (a fetcher's too) is under
 * way, once it has ended: starting one then would interrupt the page's own load, and with it the message
 * (flash) that load was bringing.
 */
export function useRevalidateWhenIdle(): () => void {
  const revalidator = useRevalidator();
  // A fetcher's form (an upload) counts too: its answer sets the flash cookie and then redirects, and a reload
  // started in between would spend the message on the page being left.
  const fetchers = useFetchers();
  const busy = useNavigation().state !== "idle" || fetchers.some((f) => f.state !== "idle");
  const busyNow = useRef(busy);
  busyNow.current = busy;
  const waiting = useRef(false);
  useEffect(() => {
    if (busy || !waiting.current) return;
    waiting.current = false;
    void revalidator.revalidate();
  }, [busy, revalidator]);
  return useCallback(() => {
    if (busyNow.current) waiting.current = true;
    else void revalidator.revalidate();
  }, [revalidator]);
}

/** Reloads the page's data whenever `event` arrives on `channel` (waiting for a navigation under way). */
export function RevalidateOn({ channel, event }: { channel: string | null; event: string }) {
  const revalidate = useRevalidateWhenIdle();
  useRealtimeEvent(channel, event, revalidate);
  return null;
}
