/**
 * Route names to path templates, for links built from data: a notification's
 * `route_name` + `resource_id` + `route_hash` becomes a URL here. Each name is the `handle.routeName`
 * of the route module serving that path; add a name when its page is built.
 */
import { PROFILE_TYPE_INFO, PROFILE_TYPES, profileRouteNames } from "~/modules/profiles/profile-types";

const PATHS: Record<string, string> = {
  login: "/login",
  register: "/register",
  "register-affiliate": "/register/affiliate",
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
  // Marketplace projects.
  "member-projects": "/member/:memberId/projects",
  "member-project": "/member/:memberId/project/:id",
  "admin-projects": "/admin/projects",
  "admin-project": "/admin/project/:id",
  ...communityPaths(),
  "band-invite": "/band-invite/:id",
  "admin-djs": "/admin/djs",
  "admin-songwriters": "/admin/songwriters",
  "admin-managers": "/admin/managers",
  "admin-venues": "/admin/venues",
  "admin-genres": "/admin/genres",
  "admin-skills": "/admin/skills",
  "admin-instruments": "/admin/instruments",
  "admin-languages": "/admin/languages",
  "admin-pros": "/admin/pros",
  // Catalogue. The release pages' slugs are not ids: their links are built by the catalogue module.
  "member-releases": "/member/:memberId/releases",
  "member-release-profile": "/member/:memberId/release-profile/:id",
  "member-digital-distribution-start": "/member/:memberId/digital-distribution/start",
  "admin-releases": "/admin/releases",
  "admin-release-profile": "/admin/release-profile/:id",
  "member-songs": "/member/:memberId/songs",
  "member-song-profile": "/member/:memberId/song-profile/:id",
  "admin-songs": "/admin/songs",
  // Legal documents and signatures. The spec lists `document/create/` with a trailing slash: React Router
  // matches it with or without one, and links use the form without (decision 024).
  "admin-documents": "/admin/documents",
  "admin-document-create": "/admin/document/create",
  "admin-document-edit": "/admin/document/edit/:id",
  "admin-signatures": "/admin/signatures",
  "admin-song-profile": "/admin/song-profile/:id",
  "song-producer-invite": "/song-producer-invite/:id",
  "song-featured-artist-invite": "/song-featured-artist-invite/:id",
  // Splits: the signed link carries the party in its query.
  "share-split-proposals-create-account": "/share-split-proposals/create-account",
  "member-income": "/member/:memberId/member-income",
  "admin-transactions": "/admin/transactions",
  // Royalties.
  "admin-upload-sales": "/admin/upload-sales",
  "admin-sales-import": "/admin/upload-sales/:id",
  "admin-suspense": "/admin/suspense",
  // Sales pages.
  "member-sales-digital": "/member/:memberId/sales/digital",
  "member-sales-digital-detail-artist": "/member/:memberId/sales/digital/detail/artist/:id",
  "member-sales-license": "/member/:memberId/sales/license",
  "member-sales-license-detail-artist": "/member/:memberId/sales/license/detail/artist/:id",
  "member-sales-pro": "/member/:memberId/sales/pro",
  "member-sales-pro-detail-artist": "/member/:memberId/sales/pro/detail/artist/:id",
  "admin-sales-digital": "/admin/sales/digital",
  "admin-sales-digital-details-artist": "/admin/sales/digital/details/artist/:id",
  "admin-sales-pro": "/admin/sales/pro",
  "admin-sales-pro-details-member": "/admin/sales/pro/details/member/:id",
  "admin-sales-license": "/admin/sales/license",
  "admin-sales-license-details-artist": "/admin/sales/license/details/artist/:id",
  // Payouts.
  "member-royalty-payment-requests": "/member/:memberId/royalty-payment-requests",
  "member-payouts-provider": "/member/:memberId/payouts-provider",
  "admin-royalty-payment-requests": "/admin/royalty-payment-requests",
  "admin-payment-accounts": "/admin/payment-accounts",
  "member-payment-account-stripe-refresh": "/member/:memberId/payment-account-stripe-refresh/:id",
  "member-payment-account-stripe-onboarding": "/member/:memberId/payment-account-stripe-onboarding",
  "admin-member-payment-account-stripe-refresh": "/admin/member/:memberId/payment-account-stripe-refresh/:id",
  // Marketplace. The estimate page's id is its work request's (decision 021).
  "member-work-requests": "/member/:memberId/work-requests",
  "member-work-request": "/member/:memberId/work-request/:id",
  "member-work-request-estimate": "/member/:memberId/work-request/estimate/:id",
  "admin-work-requests": "/admin/work-requests",
  "admin-work-request": "/admin/work-request/:id",
  "admin-work-request-estimate": "/admin/work-request/estimate/:id",
  // Affiliates.
  "member-affiliate": "/member/:memberId/affiliate/:id",
  "admin-affiliates": "/admin/affiliates",
  "admin-affiliate": "/admin/affiliate/:id",
  // Post-production jobs (decision 023): the signed link carries the job in its query.
  "member-post-production-jobs": "/member/:memberId/post-production-jobs",
  "member-post-production-job": "/member/:memberId/post-production-job/:id",
  "admin-post-production-jobs": "/admin/post-production-jobs",
  "admin-post-production-job": "/admin/post-production-job/:id",
  "post-production-jobs-create-account": "/post-production-jobs/create-account",
};

/** The pages of every profile type (profile-types.ts); a public page's `:id` is the username. */
function communityPaths(): Record<string, string> {
  const entries = PROFILE_TYPES.flatMap((type) => {
    const names = profileRouteNames(type);
    const info = PROFILE_TYPE_INFO[type];
    return [
      [names.memberDirectory, `/member/:memberId/${info.directory}`],
      [names.memberPublicPage, `/member/:memberId/${info.directory}/:id`],
      [names.memberOwnerPage, `/member/:memberId/${info.memberPage}/:id`],
      [names.adminDirectory, `/admin/${info.directory}`],
      [names.adminPublicPage, `/admin/${info.directory}/:id`],
      [names.adminModeration, `/admin/${info.directory}/profiles`],
      [names.adminOwnerPage, `/admin/${info.adminPage}/:id`],
    ];
  });
  return Object.fromEntries(entries);
}

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
