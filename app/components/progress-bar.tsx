import { useEffect, useRef, useState } from "react";
import { useFetchers, useNavigation } from "react-router";
import { REQUEST_FAILED_EVENT } from "./http-interceptor.client";

type BarState = "idle" | "loading" | "complete" | "failed";

/**
 * The top progress bar during navigations and submissions: 2px, dark green, red when a request of
 * the page failed, above everything (z-index 999999). It finishes on error too.
 */
export function ProgressBar() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  const [state, setState] = useState<BarState>("idle");
  const failedRef = useRef(false);

  useEffect(() => {
    const onFailed = () => {
      failedRef.current = true;
    };
    window.addEventListener(REQUEST_FAILED_EVENT, onFailed);
    return () => window.removeEventListener(REQUEST_FAILED_EVENT, onFailed);
  }, []);

  useEffect(() => {
    if (busy) {
      failedRef.current = false;
      setState("loading");
      return;
    }
    setState((current) => (current === "idle" ? "idle" : failedRef.current ? "failed" : "complete"));
    const timer = setTimeout(() => setState("idle"), failedRef.current ? 1500 : 400);
    return () => clearTimeout(timer);
  }, [busy]);

  const width = state === "loading" ? "80%" : state === "idle" ? "0%" : "100%";
  return (
    <div
      role="progressbar"
      aria-label="Page loading"
      aria-hidden={state === "idle"}
      data-state={state}
      className="pointer-events-none fixed top-0 left-0 h-[2px]"
      style={{
        zIndex: 999999,
        width,
        opacity: state === "idle" ? 0 : 1,
        backgroundColor: state === "failed" ? "#dc2626" : "#14532d",
        transition: state === "loading" ? "width 8s cubic-bezier(0.1, 0.7, 0.2, 1)" : "width 200ms ease-out, opacity 300ms ease 200ms",
      }}
    />
  );
}
