import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { RequestInfoContext } from "./context";
import { requestInfoContext } from "./request-context";

export { boot, databaseDescription, shutdown, storageDescription } from "./boot.server";
export { createLoadContext } from "./request-context";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { cspNonce: nonce, requestId } = loadContext.get(requestInfoContext);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <RequestInfoContext.Provider value={{ nonce, requestId }}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </RequestInfoContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logError(error, requestId, request);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/** Every unexpected server error is logged once, with its stack and the request id users see. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  logError(error, requestIdOf(context), request);
};

function requestIdOf(context: unknown): string {
  try {
    return (context as RouterContextProvider).get(requestInfoContext).requestId;
  } catch {
    return "";
  }
}

function logError(error: unknown, requestId: string, request: Request) {
  const err = error instanceof Error ? error : new Error(String(error));
  console.error(
    JSON.stringify({
      level: "error",
      requestId,
      method: request.method,
      url: new URL(request.url).pathname,
      message: err.message,
      stack: err.stack,
    }),
  );
}
