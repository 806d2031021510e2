import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import {
  UNSAFE_withComponentProps as withComponentProps,
  UNSAFE_withErrorBoundaryProps as withErrorBoundaryProps,
  UNSAFE_withHydrateFallbackProps as withHydrateFallbackProps,
  type ServerBuild,
} from "react-router";
import reactRouterConfig from "../../react-router.config";
import { createApp } from "../../server/app.js";
import { countQueries } from "~/db/client.server";
import * as entryServer from "~/entry.server";
import { env } from "~/env.server";
import { extraConnectSources } from "~/modules/config/public-config.server";
import { bodyLimitFor } from "~/modules/security/body-limits";
import * as rootRoute from "~/root";

/**
 * The real Express app (server/app.js) around the real React Router request handler, listening on
 * 127.0.0.1 inside the test process. The ServerBuild is assembled here from the app's own modules,
 * as Vitest loads them, instead of importing build/server/index.js: that bundle carries its own copy
 * of every app module (its own db() singleton among them), so it would not see `useTestDatabase()`.
 */

const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
const appDirectory = path.join(projectRoot, "app");

// Every route module the file-system routes can name; loaded lazily, only those in the route config.
// Keys are project-root paths ("/app/routes/login.tsx").
const routeModuleLoaders = import.meta.glob(["/app/routes/**/*.{ts,tsx}", "!/app/routes/**/*.test.{ts,tsx}"]);

type ServerRoutes = ServerBuild["routes"];
type RouteModule = NonNullable<ServerRoutes[string]>["module"];
type AssetRoutes = ServerBuild["assets"]["routes"];

/** Where the pretend client bundle lives; nothing is served there, documents only name it. */
const CLIENT_ASSETS = "/__app-server/";

let buildPromise: Promise<ServerBuild> | undefined;

/** The ServerBuild for this test file's module graph, made once per file (Vitest isolates files). */
export function testServerBuild(): Promise<ServerBuild> {
  buildPromise ??= assembleServerBuild();
  return buildPromise;
}

/**
 * app/routes.ts as React Router's config loader runs it: `flatRoutes()` reads the app directory from
 * a global the loader sets around that import, so it is set here too (and restored afterwards).
 */
export async function loadRouteConfig(): Promise<RouteConfigEntry[]> {
  const scope = globalThis as { __reactRouterAppDirectory?: string };
  const previous = scope.__reactRouterAppDirectory;
  scope.__reactRouterAppDirectory = appDirectory;
  try {
    const { default: routeConfig } = await import("~/routes");
    return await routeConfig;
  } finally {
    if (previous === undefined) delete scope.__reactRouterAppDirectory;
    else scope.__reactRouterAppDirectory = previous;
  }
}

async function assembleServerBuild(): Promise<ServerBuild> {
  // Same shape as the plugin's config loader: the root route wraps everything app/routes.ts lists.
  const rootEntry: RouteConfigEntry = { id: "root", path: "", file: "root.tsx", children: await loadRouteConfig() };

  const routes: ServerRoutes = {};
  const assetRoutes: AssetRoutes = {};
  async function addRoute(entry: RouteConfigEntry, parentId: string | undefined) {
    const id = entry.id ?? entry.file.replace(/\.[a-z0-9]+$/i, "");
    if (routes[id]) throw new Error(`Duplicate route id "${id}"`);
    const module = withRouteProps(id === "root" ? (rootRoute as unknown as RouteModule) : await loadRouteModule(entry.file));
    routes[id] = { id, parentId, path: entry.path, index: entry.index, caseSensitive: entry.caseSensitive, module };
    assetRoutes[id] = {
      id,
      parentId,
      path: entry.path,
      index: entry.index,
      caseSensitive: entry.caseSensitive,
      module: `${CLIENT_ASSETS}${entry.file.replace(/\.[a-z0-9]+$/i, ".js")}`,
      clientActionModule: undefined,
      clientLoaderModule: undefined,
      clientMiddlewareModule: undefined,
      hydrateFallbackModule: undefined,
      // The flags the plugin derives from a route's exports; they decide what documents and .data answer.
      hasAction: "action" in module,
      hasLoader: "loader" in module,
      hasClientAction: "clientAction" in module,
      hasClientLoader: "clientLoader" in module,
      hasClientMiddleware: "clientMiddleware" in module,
      hasErrorBoundary: "ErrorBoundary" in module,
      imports: [],
    };
    for (const child of entry.children ?? []) await addRoute(child, id);
  }
  await addRoute(rootEntry, undefined);

  // The plugin's defaults for what react-router.config.ts leaves out.
  const config = reactRouterConfig as typeof reactRouterConfig & {
    basename?: string;
    future?: Partial<ServerBuild["future"]>;
    routeDiscovery?: ServerBuild["routeDiscovery"];
    allowedActionOrigins?: string[] | false;
  };
  const ssr = config.ssr ?? true;
  return {
    entry: { module: entryServer as unknown as ServerBuild["entry"]["module"] },
    routes,
    assets: {
      version: "app-server-test",
      url: `${CLIENT_ASSETS}manifest.js`,
      entry: { module: `${CLIENT_ASSETS}entry.client.js`, imports: [] },
      routes: assetRoutes,
    },
    basename: config.basename ?? "/",
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {
      unstable_optimizeDeps: false,
      v8_passThroughRequests: false,
      v8_trailingSlashAwareDataRequests: false,
      unstable_previewServerPrerendering: false,
      v8_splitRouteModules: false,
      v8_viteEnvironmentApi: false,
      ...config.future,
    } as ServerBuild["future"],
    ssr,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: config.routeDiscovery ?? (ssr ? { mode: "lazy", manifestPath: "/__manifest" } : { mode: "initial" }),
    allowedActionOrigins: config.allowedActionOrigins ?? false,
  } as ServerBuild;
}

async function loadRouteModule(file: string): Promise<RouteModule> {
  const load = routeModuleLoaders[`/app/${file}`];
  if (!load) throw new Error(`Route module app/${file} is outside the glob in tests/helpers/app-server.ts`);
  return (await load()) as RouteModule;
}

/**
 * The plugin's route-exports transform wraps a route's default export, ErrorBoundary and HydrateFallback
 * so they receive `loaderData`, `params`, `error`... as props; Vitest loads the untransformed source.
 */
function withRouteProps(module: RouteModule): RouteModule {
  const wrapped: Record<string, unknown> = { ...module };
  if (module.default) wrapped.default = withComponentProps(module.default as never);
  if (module.ErrorBoundary) wrapped.ErrorBoundary = withErrorBoundaryProps(module.ErrorBoundary as never);
  if (module.HydrateFallback) wrapped.HydrateFallback = withHydrateFallbackProps(module.HydrateFallback as never);
  return wrapped as unknown as RouteModule;
}

/** The statements the server ran for one request (counted from its arrival to the end of its response). */
export interface RequestQueries {
  method: string;
  url: string;
  status: number;
  count: number;
  sql: string[];
}

export interface AppServer {
  /** The server's own origin (http://127.0.0.1:port); also the app's APP_URL for the HTTP layer. */
  origin: string;
  /** Same as origin: prefix paths with it (`${server.url}/login`). */
  url: string;
  /**
   * Runs `fn` (which makes requests to this server) and returns the SQL statements the server ran for
   * every request that arrived while `fn` ran, waiting for those responses to end. Read response bodies
   * inside `fn`: a streamed page only ends once it is read. Requests from overlapping calls count in each.
   */
  countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; count: number; sql: string[]; requests: RequestQueries[] }>;
  /**
   * One GET (or `init`) of `path`, redirects not followed, body read: its status and the statements the
   * server ran for it. Every page's test asserts its count with this (a page costs what it shows).
   */
  statementsOf(path: string, init?: RequestInit): Promise<{ status: number; count: number; sql: string[]; requests: RequestQueries[] }>;
  /** A form POST of `fields` to `path` as a page of the app would send it (with its Origin), redirects not followed. */
  postForm(path: string, fields: Record<string, string>, cookie: string): Promise<Response>;
  /** A GET of `path` with the session `cookie`, redirects not followed. */
  getAs(path: string, cookie: string): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the app on 127.0.0.1 on a free port. Call it after `useTestDatabase()`'s beforeAll has run
 * (in a later beforeAll or in a test): the handler uses whatever database `db()` returns per request.
 */
export async function startAppServer(options: { trustProxy?: boolean; clientDir?: string } = {}): Promise<AppServer> {
  const build = await testServerBuild();

  // The port comes first: the app's allowed origin (the cross-site guard) is the server's own origin.
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const app = createApp({
    build,
    // public/ is what build/client holds besides the bundles (favicon, manifest), so no build is needed.
    clientDir: options.clientDir ?? path.join(projectRoot, "public"),
    appUrl: origin,
    trustProxy: options.trustProxy,
    connectSrc: extraConnectSources(env()),
    bodyLimitFor,
    createLoadContext: entryServer.createLoadContext,
    log: () => {},
  });

  /**
   * countQueries (~/db/client.server) scopes its count with AsyncLocalStorage, and that context does
   * not cross the socket: a request's handler runs in the server's context, not the fetch caller's.
   * So every request is handled inside its own countQueries scope here, and its statements are handed
   * to the collectors open when it arrived.
   */
  const collectors = new Set<{ finished: Promise<RequestQueries>[] }>();
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const counted = countQueries(
      () =>
        new Promise<void>((resolve) => {
          // "close" comes after the last byte is handed to the socket, or when the client goes away.
          res.once("close", () => resolve());
          app(req, res);
        }),
    ).then(({ count, sql }) => ({ method: req.method ?? "", url: req.url ?? "", status: res.statusCode, count, sql }));
    for (const collector of collectors) collector.finished.push(counted);
  });

  const appServer: AppServer = {
    origin,
    url: origin,
    async countQueries(fn) {
      const collector = { finished: [] as Promise<RequestQueries>[] };
      collectors.add(collector);
      let result;
      try {
        result = await fn();
      } finally {
        collectors.delete(collector);
      }
      const requests = await Promise.all(collector.finished);
      const sql = requests.flatMap((r) => r.sql);
      return { result, count: sql.length, sql, requests };
    },
    async statementsOf(path, init = {}) {
      const { result, count, sql, requests } = await appServer.countQueries(async () => {
        const response = await fetch(`${origin}${path}`, { redirect: "manual", ...init });
        await response.arrayBuffer();
        return response;
      });
      return { status: result.status, count, sql, requests };
    },
    postForm(path, fields, cookie) {
      return fetch(`${origin}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        body: new URLSearchParams(fields),
      });
    },
    getAs(path, cookie) {
      return fetch(`${origin}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // fetch keeps its sockets alive; without this close() would wait for them to time out.
        server.closeIdleConnections();
        server.closeAllConnections();
      });
    },
  };
  return appServer;
}
