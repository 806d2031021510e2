import type { ReactNode } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { Analytics } from "./components/analytics";
import { FlashBanner } from "./components/flash-banner";
import { ProgressBar } from "./components/progress-bar";
import { scrollKey } from "./components/scroll";
import { ServiceWorkerRegistrar } from "./components/service-worker.client";
import { SiteHeader } from "./components/site-header";
import { useRequestInfo } from "./context";
import { env } from "./env.server";
import { dashboardPath, fullName, getOptionalUser } from "./modules/accounts/current-user.server";
import { analyticsConfig } from "./modules/config/public-config.server";
import { readFlash } from "./modules/flash/flash.server";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const [user, { flash, clearHeader }] = await Promise.all([getOptionalUser(request), readFlash(request)]);
  return data(
    {
      appName: env().APP_NAME,
      analytics: analyticsConfig(),
      user: user ? { id: user.id, fullname: fullName(user), dashboardPath: dashboardPath(user) } : null,
      flash,
    },
    clearHeader ? { headers: { "Set-Cookie": clearHeader } } : undefined,
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const { nonce } = useRequestInfo();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#14532d" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} getKey={scrollKey} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Area layouts (admin, member) bring their own shell; everything else is the public site. */
function useInArea() {
  return useMatches().some((m) => (m.handle as { area?: string } | undefined)?.area);
}

export default function App({ loaderData }: Route.ComponentProps) {
  const inArea = useInArea();
  return (
    <>
      <ProgressBar />
      <Analytics config={loaderData.analytics} />
      {/* A .client module: undefined while rendering on the server. */}
      {ServiceWorkerRegistrar ? <ServiceWorkerRegistrar /> : null}
      {inArea ? (
        <>
          <FlashBanner flash={loaderData.flash} className="fixed top-3 right-3 left-3 z-50 mx-auto max-w-md" />
          <Outlet />
        </>
      ) : (
        <div className="flex min-h-screen flex-col">
          <SiteHeader appName={loaderData.appName} user={loaderData.user} />
          <FlashBanner flash={loaderData.flash} />
          <main id="main" className="flex-1">
            <Outlet />
          </main>
        </div>
      )}
    </>
  );
}

/** Users never see a stack: a friendly page with the reference id the server logged the error under. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { requestId } = useRequestInfo();
  const root = useRouteLoaderData<typeof loader>("root");
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader appName={root?.appName ?? "Backline"} user={root?.user ?? null} />
      <main className="mx-auto max-w-lg flex-1 px-4 py-16 text-center">
        <p className="text-sm font-semibold text-brand-800">{status}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight">
          {notFound ? "Not Found" : status < 500 ? "This request could not be completed" : "Something went wrong"}
        </h1>
        <p className="mt-4 text-stone-600">
          {notFound
            ? "The page you are looking for does not exist or has moved."
            : status < 500
              ? "Please check what you asked for and try again."
              : "We have been told about it. Please try again in a moment."}
        </p>
        {!notFound && requestId ? (
          <p className="mt-4 text-sm text-stone-500">
            Reference: <code className="rounded bg-stone-100 px-1">{requestId}</code>
          </p>
        ) : null}
        <a href="/" className="mt-8 inline-block font-semibold text-brand-800 underline">
          Go to the start page
        </a>
      </main>
    </div>
  );
}
