// The few service-worker globals the worker uses. The project typechecks with the DOM library
// (adding "webworker" to the same program clashes with it), so the worker declares what it needs here.

export interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

export interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  readonly preloadResponse: Promise<Response | undefined>;
  respondWith(response: Response | Promise<Response>): void;
}

export interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
  readonly ports: ReadonlyArray<MessagePort>;
}

interface ServiceWorkerEvents {
  install: ExtendableEvent;
  activate: ExtendableEvent;
  fetch: FetchEvent;
  message: ExtendableMessageEvent;
}

export interface ServiceWorkerGlobal {
  readonly location: Location;
  readonly registration: ServiceWorkerRegistration;
  skipWaiting(): Promise<void>;
  addEventListener<K extends keyof ServiceWorkerEvents>(type: K, listener: (event: ServiceWorkerEvents[K]) => void): void;
}
