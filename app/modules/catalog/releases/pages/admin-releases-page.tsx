import type { AdminReleasesData } from "../release-routes.server";
import { ReleaseListSection } from "./release-list-section";

export function AdminReleasesPage({ loaderData }: { loaderData: AdminReleasesData }) {
  const { query, list } = loaderData;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Releases</h1>
        <p className="mt-1 text-sm text-stone-600">Every release; filter by “Pending approval” for the review queue.</p>
      </div>
      <ReleaseListSection query={query} list={list} linkFor={(r) => `/admin/release-profile/${r.id}`} />
    </div>
  );
}
