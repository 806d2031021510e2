import { useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "react-router";
import { useRealtimeEvent } from "./realtime";

/**
 * Reloads the page's data (loaders) whenever `event` arrives on `channel`. While a navigation or a form
 * submission is under way the reload waits for it to end: starting one then would interrupt the page's own load,
 * and with it the message (flash) that load was bringing.
 */
export function RevalidateOn({ channel, event }: { channel: string | null; event: string }) {
  const revalidator = useRevalidator();
  const busy = useNavigation().state !== "idle";
  const busyNow = useRef(busy);
  busyNow.current = busy;
  const waiting = useRef(false);
  useRealtimeEvent(channel, event, () => {
    if (busyNow.current) waiting.current = true;
    else void revalidator.revalidate();
  });
  useEffect(() => {
    if (busy || !waiting.current) return;
    waiting.current = false;
    void revalidator.revalidate();
  }, [busy, revalidator]);
  return null;
}
