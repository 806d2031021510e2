import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { adminDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/admin.studios._index";

// An index route, not `admin.studios.tsx`: that file would become the layout of `admin.studios.$username` and `admin.studios.profiles`.
export const handle = { routeName: "admin-studios" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Studio Pages");

export const loader = (args: Route.LoaderArgs) => adminDirectoryLoader(args, "studio");

export default function AdminStudioPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
