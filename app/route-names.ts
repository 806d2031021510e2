/**
 * Route names (spec section 2) to path templates, for links built from data: a notification's
 * `route_name` + `resource_id` + `route_hash` becomes a URL here. Each name is the `handle.routeName`
 * of the route module serving that path; add a name when its page is built.
 */
const PATHS: Record<string, string> = {
  login: "/login",
  register: "/register",
  "legal-terms": "/legal-terms",
  "legal-terms-document": "/legal-terms/:id",
  "member-dashboard": "/member/:memberId/dashboard",
  "member-profile": "/member/:memberId/profile",
  "member-contact-us": "/member/:memberId/contact-us",
  "admin-dashboard": "/admin/dashboard",
  "admin-members": "/admin/members",
  "admin-member": "/admin/member/:id",
  "admin-versions": "/admin/versions",
  "admin-announcements": "/admin/announcements",
};

export const ROUTE_NAMES = Object.keys(PATHS);

/** The URL a route name points to, or null when the name is unknown or a parameter is missing. */
export function pathForRoute(
  name: string | null | undefined,
  params: { memberId?: number | string; id?: number | string | null; hash?: string | null } = {},
): string | null {
  const template = name ? PATHS[name] : undefined;
  if (!template) return null;
  let missing = false;
  const path = template.replace(/:(memberId|id)/g, (_, key: "memberId" | "id") => {
    const value = params[key];
    if (value === undefined || value === null || value === "") {
      missing = true;
      return "";
    }
    return encodeURIComponent(String(value));
  });
  if (missing) return null;
  const hash = params.hash ? `#${params.hash.replace(/^#/, "")}` : "";
  return `${path}${hash}`;
}
