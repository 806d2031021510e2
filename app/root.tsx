import type { ReactNode } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { Analytics } from "./components/analytics";
import { RouteErrorPage } from "./components/error-page";
import { FlashBanner } from "./components/flash-banner";
import { ProgressBar } from "./components/progress-bar";
import { scrollKey } from "./components/scroll";
import { ServiceWorkerRegistrar } from "./components/service-worker.client";
import { SiteHeader } from "./components/site-header";
import { useRequestInfo } from "./context";
import { env } from "./env.server";
import { statementCountMiddleware } from "./db/statement-count-middleware.server";
import { referralMiddleware } from "./modules/affiliates/referrals.server";
import { dashboardPath, fullName, getOptionalUser } from "./modules/accounts/current-user.server";
import { sessionMiddleware } from "./modules/accounts/session-user.server";
import { analyticsConfig } from "./modules/config/public-config.server";
import { readFlash } from "./modules/flash/flash.server";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

/** Every request: the statement count (when asked for), then the session read once for all loaders. */
export const middleware: Route.MiddlewareFunction[] = [statementCountMiddleware, sessionMiddleware, referralMiddleware];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [user, { flash, clearHeader }] = await Promise.all([getOptionalUser(context), readFlash(request)]);
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

/** Users never see a stack: the shared error page inside the public site's header. */
export function ErrorBoundary() {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader appName={root?.appName ?? "Backline"} user={root?.user ?? null} />
      <main className="flex-1">
        <RouteErrorPage />
      </main>
    </div>
  );
}
