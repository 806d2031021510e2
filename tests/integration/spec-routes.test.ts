import path from "node:path";
import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { loadRouteConfig } from "../helpers/app-server";

/**
 * Every page path of the spec's section 2 (125 of them, copied here from the spec so the suite needs nothing
 * outside the repository) reaches a page of its own: not a catch-all Not Found, and a route module that names
 * itself with the area's prefix (spec: "Route names are prefixed admin- in the admin area and member- in the
 * member area"). The paths the app serves differently are in docs/decisions/026-spec-routes.md.
 */
const SPEC_PAGES = {
  public: [
    "/login",
    "/forgot-password",
    "/password-reset/{token}",
    "/band-invite/{id}",
    "/email-verify/{id}/{hash}",
    "/activate-account",
    "/register",
    "/register/affiliate",
    "/share-split-proposals/create-account",
    "/post-production-jobs/create-account",
    "/legal-terms",
    "/legal-terms/{documentName}",
    "/song-producer-invite/{id}",
    "/song-featured-artist-invite/{id}",
  ],
  admin: [
    "/admin/dashboard",
    "/admin/members",
    "/admin/member/{id}",
    "/admin/artists",
    "/admin/artists/{username}",
    "/admin/artists/profiles",
    "/admin/artist-profile/{id}",
    "/admin/release-profile/{id}",
    "/admin/release-page/{artistSlug}/{releaseSlug}",
    "/admin/song-profile/{id}",
    "/admin/music-producers",
    "/admin/music-producers/{username}",
    "/admin/music-producers/{id}/create-work-request",
    "/admin/music-producers/profiles",
    "/admin/music-producer-profile/{id}",
    "/admin/musicians",
    "/admin/musicians/{username}",
    "/admin/musicians/{id}/create-work-request",
    "/admin/musicians/profiles",
    "/admin/musicians-profile/{id}",
    "/admin/djs",
    "/admin/songwriters",
    "/admin/audio-engineers",
    "/admin/audio-engineers/{username}",
    "/admin/audio-engineers/{id}/create-work-request",
    "/admin/audio-engineers/profiles",
    "/admin/audio-engineers-profile/{id}",
    "/admin/studios",
    "/admin/studios/{username}",
    "/admin/studios/{id}/create-work-request",
    "/admin/studios/profiles",
    "/admin/studios-profile/{id}",
    "/admin/managers",
    "/admin/venues",
    "/admin/genres",
    "/admin/skills",
    "/admin/instruments",
    "/admin/pros",
    "/admin/releases",
    "/admin/transactions",
    "/admin/royalty-payment-requests",
    "/admin/payment-accounts",
    "/admin/member/{memberId}/payment-account-stripe-refresh/{accountId}",
    "/admin/work-requests",
    "/admin/work-request/{id}",
    "/admin/work-request/estimate/{id}",
    "/admin/projects",
    "/admin/project/{id}",
    "/admin/affiliates",
    "/admin/affiliate/{id}",
    "/admin/post-production-jobs",
    "/admin/post-production-job/{id}",
    "/admin/signatures",
    "/admin/documents",
    "/admin/document/create",
    "/admin/document/edit/{id}",
    "/admin/songs",
    "/admin/sales/digital",
    "/admin/sales/digital/details/artist/{id}",
    "/admin/sales/pro",
    "/admin/sales/pro/details/member/{id}",
    "/admin/sales/license",
    "/admin/sales/license/details/artist/{id}",
    "/admin/upload-sales",
  ],
  member: [
    "/member/{memberId}/dashboard",
    "/member/{memberId}/affiliate/{id}",
    "/member/{memberId}/contact-us",
    "/member/{memberId}/profile",
    "/member/{memberId}/member-income",
    "/member/{memberId}/royalty-payment-requests",
    "/member/{memberId}/payment-account-stripe-refresh/{accountId}",
    "/member/{memberId}/work-requests",
    "/member/{memberId}/work-request/{id}",
    "/member/{memberId}/work-request/estimate/{id}",
    "/member/{memberId}/projects",
    "/member/{memberId}/project/{id}",
    "/member/{memberId}/digital-distribution/start",
    "/member/{memberId}/post-production-jobs",
    "/member/{memberId}/post-production-job/{id}",
    "/member/{memberId}/songs",
    "/member/{memberId}/song-profile/{id}",
    "/member/{memberId}/releases",
    "/member/{memberId}/release-profile/{id}",
    "/member/{memberId}/artists",
    "/member/{memberId}/artists/{username}",
    "/member/{memberId}/artist-profile/{id}",
    "/member/{memberId}/musician-profile/{id}",
    "/member/{memberId}/musicians",
    "/member/{memberId}/musicians/{username}",
    "/member/{memberId}/musicians/{id}/create-work-request",
    "/member/{memberId}/audio-engineer-profile/{id}",
    "/member/{memberId}/audio-engineers",
    "/member/{memberId}/audio-engineers/{username}",
    "/member/{memberId}/audio-engineers/{id}/create-work-request",
    "/member/{memberId}/studio-profile/{id}",
    "/member/{memberId}/studios",
    "/member/{memberId}/studios/{username}",
    "/member/{memberId}/studios/{id}/create-work-request",
    "/member/{memberId}/music-producer-profile/{id}",
    "/member/{memberId}/music-producers",
    "/member/{memberId}/music-producers/{username}",
    "/member/{memberId}/music-producers/{id}/create-work-request",
    "/member/{memberId}/release-page/{artistSlug}/{releaseSlug}",
    "/member/{memberId}/releases/{artistSlug}/{releaseSlug}",
    "/member/{memberId}/payouts-provider",
    "/member/{memberId}/sales/digital",
    "/member/{memberId}/sales/digital/detail/artist/{id}",
    "/member/{memberId}/sales/license",
    "/member/{memberId}/sales/license/detail/artist/{id}",
    "/member/{memberId}/sales/pro",
    "/member/{memberId}/sales/pro/detail/artist/{id}",
  ],
} as const;

const SAMPLE: Record<string, string> = {
  memberId: "2",
  id: "7",
  username: "someone",
  token: "a1b2c3",
  hash: "d4e5f6",
  documentName: "terms-of-service",
  artistSlug: "midnight-owls",
  releaseSlug: "late-trains",
  accountId: "acct_123",
};
const concrete = (template: string) => template.replace(/\{(\w+)\}/g, (_, key: string) => SAMPLE[key] ?? "x");

/** Splat routes: the areas' Not Found pages and the API's. */
const CATCH_ALL = /(^|[./])\$\.tsx?$/;

/**
 * Pages that only send the visitor on (decision 019: a Stripe onboarding refresh issues a fresh link, or
 * returns to payouts-provider / Payment accounts): a loader, no view of their own.
 */
const REDIRECT_ONLY = new Set([
  "/admin/member/{memberId}/payment-account-stripe-refresh/{accountId}",
  "/member/{memberId}/payment-account-stripe-refresh/{accountId}",
]);

describe("the spec's pages (section 2)", async () => {
  const config = await loadRouteConfig();
  // The config's entries (path, index, children, file) are what matchRoutes reads; `file` rides along.
  const routes = [{ path: "", file: "root.tsx", children: config }] as unknown as RouteObject[];

  const leafOf = (pathname: string) => matchRoutes(routes, pathname)?.at(-1)?.route as unknown as { file: string } | undefined;

  it("lists 125 paths", () => {
    expect(Object.values(SPEC_PAGES).flat()).toHaveLength(125);
  });

  it.each(Object.entries(SPEC_PAGES).flatMap(([area, paths]) => paths.map((p) => [area, p] as const)))("%s %s has its page", async (area, template) => {
    const leaf = leafOf(concrete(template));
    expect(leaf, template).toBeDefined();
    expect(leaf!.file, template).not.toMatch(CATCH_ALL);
    const module = (await import(/* @vite-ignore */ path.resolve("app", leaf!.file))) as {
      handle?: { routeName?: string };
      default?: unknown;
      loader?: unknown;
    };
    const routeName = module.handle?.routeName ?? "";
    expect(routeName, `${template} (${leaf!.file})`).not.toBe("");
    if (area !== "public") expect(routeName, `${template} (${leaf!.file})`).toMatch(new RegExp(`^${area}-`));
    if (REDIRECT_ONLY.has(template)) expect(module.loader, template).toBeDefined();
    else expect(module.default, `${template}: a page, not only a resource route`).toBeDefined();
  });

  it("an unknown path in each area reaches that area's Not Found", () => {
    expect(leafOf("/admin/no-such-page")!.file).toMatch(CATCH_ALL);
    expect(leafOf("/member/2/no-such-page")!.file).toMatch(CATCH_ALL);
    expect(leafOf("/no-such-page")!.file).toMatch(CATCH_ALL);
  });
});
