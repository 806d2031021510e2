import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form, NavLink, useLocation } from "react-router";
import { AvatarMenu } from "./avatar-menu";
import type { MenuGroup } from "./menus/menu-types";
import { Logo } from "./site-header";

export interface ShellUser {
  id: number;
  fullname: string;
  email: string;
  avatar_img: string | null;
  acct_type: number;
}

/**
 * The signed-in layout shared by both areas: header (logo, notifications slot, avatar menu), the area's
 * menu (a sidebar on wide screens, a drawer on phones), the page, and a footer with the app version.
 */
export function AreaShell({
  appName,
  area,
  user,
  homePath,
  menu,
  version,
  notifications,
  children,
}: {
  appName: string;
  area: "admin" | "member";
  user: ShellUser;
  homePath: string;
  menu: MenuGroup[];
  version: string;
  notifications?: ReactNode;
  children: ReactNode;
}) {
  const [navOpen, setNavOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // A navigation closes the drawer.
  useEffect(() => setNavOpen(false), [location.pathname]);

  // Opening the nav scrolls it to the top; Escape or a click outside closes it.
  useEffect(() => {
    if (!navOpen) return;
    navRef.current?.scrollTo({ top: 0 });
    navRef.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setNavOpen(false);
        toggleRef.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!navRef.current?.contains(target) && !toggleRef.current?.contains(target)) setNavOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [navOpen]);

  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-30 border-b border-stone-200 bg-white">
        <div className="flex h-16 items-center gap-2 px-3 sm:gap-3 sm:px-4">
          <button
            ref={toggleRef}
            type="button"
            className="rounded-md p-2 text-stone-700 hover:bg-stone-100 lg:hidden"
            aria-expanded={navOpen}
            aria-controls="area-nav"
            onClick={() => setNavOpen((open) => !open)}
          >
            <span className="sr-only">{navOpen ? "Close menu" : "Open menu"}</span>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 stroke-current" fill="none" strokeWidth="2">
              <path d={navOpen ? "M6 6l12 12M18 6L6 18" : "M4 7h16M4 12h16M4 17h16"} strokeLinecap="round" />
            </svg>
          </button>
          <Logo to={homePath} appName={appName} />
          {area === "admin" ? (
            <span className="shrink-0 rounded bg-brand-900 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white">Admin Area</span>
          ) : null}
          <div className="ml-auto flex items-center gap-2">
            <div data-slot="notifications">{notifications}</div>
            <AvatarMenu user={user} showAdminArea={area === "member" && user.acct_type === 2} />
          </div>
        </div>
      </header>
      <div className="flex flex-1">
        {navOpen ? <div className="fixed inset-0 top-16 z-20 bg-stone-900/30 lg:hidden" aria-hidden="true" /> : null}
        <nav
          ref={navRef}
          id="area-nav"
          aria-label={area === "admin" ? "Admin menu" : "Member menu"}
          className={`${navOpen ? "fixed" : "hidden"} inset-y-0 top-16 left-0 z-20 w-72 overflow-y-auto border-r border-stone-200 bg-white px-3 py-4 lg:sticky lg:block lg:h-[calc(100vh-4rem)] lg:w-64 lg:shrink-0`}
        >
          <MenuGroups groups={menu} />
        </nav>
        <div className="flex min-w-0 flex-1 flex-col">
          <main id="main" className="flex-1 px-4 py-6 sm:px-6 lg:px-8">
            {children}
          </main>
          <footer className="border-t border-stone-200 px-4 py-3 text-xs text-stone-500 sm:px-6 lg:px-8">
            {appName} <span data-testid="app-version">v{version}</span>
          </footer>
        </div>
      </div>
    </div>
  );
}

function MenuGroups({ groups }: { groups: MenuGroup[] }) {
  return (
    <div className="space-y-5">
      {groups.map((group) => (
        <section key={group.heading} aria-labelledby={`menu-${slug(group.heading)}`}>
          <h2 id={`menu-${slug(group.heading)}`} className="px-3 text-xs font-semibold tracking-wide text-stone-500 uppercase">
            {group.heading}
          </h2>
          <ul className="mt-1 space-y-0.5">
            {group.items.map((item) => (
              <li key={item.label}>
                {"logout" in item ? (
                  <Form method="post" action="/logout">
                    <button type="submit" className="w-full rounded-md px-3 py-1.5 text-left text-sm text-stone-700 hover:bg-stone-100">
                      {item.label}
                    </button>
                  </Form>
                ) : (
                  <NavLink
                    to={item.to}
                    className={({ isActive }) =>
                      `block rounded-md px-3 py-1.5 text-sm ${isActive ? "bg-brand-50 font-semibold text-brand-900" : "text-stone-700 hover:bg-stone-100"}`
                    }
                  >
                    {item.label}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

const slug = (value: string) => value.toLowerCase().replace(/[^a-z0-9]+/g, "-");
