import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { adminSkillListLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/admin.songwriters";

export const handle = { routeName: "admin-songwriters" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Songwriters");

export const loader = (args: Route.LoaderArgs) => adminSkillListLoader(args, "songwriters");

export default function AdminSongwriters({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
