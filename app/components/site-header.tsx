import { Form, Link } from "react-router";

export interface HeaderUser {
  id: number;
  fullname: string;
  dashboardPath: string;
}

export function Logo({ to, appName }: { to: string; appName: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 text-lg font-bold tracking-tight text-brand-900">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7 fill-brand-800">
        <rect x="2" y="10" width="3" height="8" rx="1" />
        <rect x="7" y="6" width="3" height="12" rx="1" />
        <rect x="12" y="3" width="3" height="18" rx="1" />
        <rect x="17" y="8" width="3" height="10" rx="1" />
      </svg>
      <span>{appName}</span>
    </Link>
  );
}

export function LogoutButton({ className }: { className?: string }) {
  return (
    <Form method="post" action="/logout">
      <button type="submit" className={className ?? "text-sm font-medium text-stone-700 hover:text-stone-900"}>
        Logout
      </button>
    </Form>
  );
}

/** The public site's header: Register and Login when logged out, the way back in when logged in. */
export function SiteHeader({ appName, user }: { appName: string; user: HeaderUser | null }) {
  return (
    <header className="border-b border-stone-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
        <Logo to={user ? user.dashboardPath : "/"} appName={appName} />
        <nav aria-label="Account" className="flex items-center gap-3">
          {user ? (
            <>
              <span className="hidden text-sm text-stone-600 sm:inline">{user.fullname}</span>
              <LogoutButton />
            </>
          ) : (
            <>
              <Link to="/register" className="rounded-md px-3 py-2 text-sm font-semibold text-brand-900 hover:bg-brand-50">
                Register
              </Link>
              <Link to="/login" className="rounded-md bg-brand-900 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                Login
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
