import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { RealtimeClientConfig } from "~/modules/config/public-config.server";
import { setSocketId } from "../http-interceptor.client";

/** pusher-js connection states. */
export type ConnectionState = "initialized" | "connecting" | "connected" | "unavailable" | "failed" | "disconnected";

// laravel-echo's types are loose here on purpose: the module is loaded only in the browser.
type EchoChannel = { listen(event: string, cb: (payload: unknown) => void): EchoChannel; stopListening(event: string): EchoChannel };
type EchoInstance = {
  private(name: string): EchoChannel;
  channel(name: string): EchoChannel;
  leave(name: string): void;
  socketId(): string | undefined;
  disconnect(): void;
  connector: { pusher: { connection: { state: ConnectionState; bind(event: string, cb: (s: { current: ConnectionState }) => void): void } } };
};

const RealtimeContext = createContext<{ echo: EchoInstance | null; state: ConnectionState }>({ echo: null, state: "initialized" });

/**
 * The client-only realtime island: laravel-echo (broadcaster "reverb") over pusher-js, created once in
 * the browser and never on the server. Any failure leaves the page working without live updates.
 */
export function RealtimeProvider({ config, children }: { config: RealtimeClientConfig | null; children: ReactNode }) {
  const [echo, setEcho] = useState<EchoInstance | null>(null);
  const [state, setState] = useState<ConnectionState>("initialized");

  useEffect(() => {
    if (!config) return;
    let instance: EchoInstance | null = null;
    let cancelled = false;
    // Logging out ends the socket first (or keeps it from ever opening, if the clients are still
    // loading), so no channel asks for authorisation after the session is gone.
    const onLogout = (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement | null;
      if (!form?.action || new URL(form.action, window.location.href).pathname !== "/logout") return;
      cancelled = true;
      instance?.disconnect();
    };
    document.addEventListener("submit", onLogout, true);

    (async () => {
      try {
        const [{ default: Echo }, { default: Pusher }] = await Promise.all([import("laravel-echo"), import("pusher-js")]);
        if (cancelled) return;
        instance = new Echo({
          broadcaster: "reverb",
          key: config.key,
          wsHost: config.wsHost,
          wsPort: config.wsPort,
          wssPort: config.wsPort,
          forceTLS: config.forceTLS,
          enabledTransports: ["ws", "wss"],
          namespace: "App.Events",
          authEndpoint: "/broadcasting/auth",
          Pusher,
        }) as unknown as EchoInstance;
        const connection = instance.connector.pusher.connection;
        setState(connection.state);
        connection.bind("state_change", ({ current }) => {
          setState(current);
          setSocketId(current === "connected" ? instance?.socketId() : undefined);
        });
        setEcho(instance);
      } catch (error) {
        console.warn("Live updates are unavailable:", error);
        setState("failed");
      }
    })();
    return () => {
      cancelled = true;
      document.removeEventListener("submit", onLogout, true);
      setSocketId(undefined);
      instance?.disconnect();
    };
    // The connection depends on the config's values, not on the object, which every loader run renews.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config?.key, config?.wsHost, config?.wsPort, config?.forceTLS]);

  return <RealtimeContext.Provider value={{ echo, state }}>{children}</RealtimeContext.Provider>;
}

export function useRealtimeState(): ConnectionState {
  return useContext(RealtimeContext).state;
}

/**
 * Calls `onEvent` for `event` on a channel while the component is mounted. `name` is the channel
 * without the `private-` prefix (Echo adds it); events are full names with a leading dot.
 */
export function useRealtimeEvent(name: string | null, event: string, onEvent: (payload: unknown) => void, kind: "private" | "public" = "private") {
  const { echo } = useContext(RealtimeContext);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!echo || !name) return;
    const channel = kind === "private" ? echo.private(name) : echo.channel(name);
    channel.listen(event, (payload) => handler.current(payload));
    return () => {
      channel.stopListening(event);
    };
  }, [echo, name, event, kind]);
}

const LABELS: Record<ConnectionState, string> = {
  initialized: "Live updates: starting",
  connecting: "Live updates: connecting",
  connected: "Live updates: connected",
  unavailable: "Live updates: unavailable, retrying",
  failed: "Live updates: not supported here",
  disconnected: "Live updates: disconnected",
};

/** A small dot in the header saying whether live updates are flowing. */
export function ConnectionIndicator() {
  const state = useRealtimeState();
  const color = state === "connected" ? "bg-green-600" : state === "connecting" || state === "initialized" ? "bg-amber-400" : "bg-stone-400";
  return (
    <span className="inline-flex items-center p-1" title={LABELS[state]} data-realtime-state={state}>
      <span aria-hidden="true" className={`size-2 rounded-full ${color}`} />
      <span className="sr-only">{LABELS[state]}</span>
    </span>
  );
}
