import { useRevalidator } from "react-router";
import { useRealtimeEvent } from "./realtime";

/** Reloads the page's data (loaders) whenever `event` arrives on `channel`. */
export function RevalidateOn({ channel, event }: { channel: string | null; event: string }) {
  const revalidator = useRevalidator();
  useRealtimeEvent(channel, event, () => void revalidator.revalidate());
  return null;
}
