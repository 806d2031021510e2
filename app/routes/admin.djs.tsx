import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { adminSkillListLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/admin.djs";

export const handle = { routeName: "admin-djs" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "DJs");

export const loader = (args: Route.LoaderArgs) => adminSkillListLoader(args, "djs");

export default function AdminDjs({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
