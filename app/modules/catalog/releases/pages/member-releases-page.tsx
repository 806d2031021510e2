import { Link } from "react-router";
import type { MemberReleasesData } from "../release-routes.server";
import { buttonPrimary } from "./release-page-parts";
import { ReleaseListSection } from "./release-list-section";

export function MemberReleasesPage({ loaderData }: { loaderData: MemberReleasesData }) {
  const { memberId, query, list } = loaderData;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Releases</h1>
          <p className="mt-1 text-sm text-stone-600">The releases of your artist pages, from draft to the stores.</p>
        </div>
        <Link to={`/member/${memberId}/release-profile/new`} className={buttonPrimary}>
          New release
        </Link>
      </div>
      <ReleaseListSection
        query={query}
        list={list}
        linkFor={(r) => r.statusPath!}
        extra={[
          {
            key: "edit",
            header: "Actions",
            headerHidden: true,
            cell: (r) => (
              <Link to={`/member/${memberId}/release-profile/${r.id}`} className="text-sm font-medium text-brand-800 underline" aria-label={`Edit ${r.title}`}>
                Edit
              </Link>
            ),
          },
        ]}
        emptyHint="Start one with “New release”."
      />
    </div>
  );
}
