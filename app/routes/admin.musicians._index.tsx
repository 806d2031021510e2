import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { adminDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/admin.musicians._index";

// An index route, not `admin.musicians.tsx`: that file would become the layout of `admin.musicians.$username` and `admin.musicians.profiles`.
export const handle = { routeName: "admin-musicians" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Musician Pages");

export const loader = (args: Route.LoaderArgs) => adminDirectoryLoader(args, "musician");

export default function AdminMusicianPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
