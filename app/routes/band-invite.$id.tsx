import { pageTitle } from "~/components/page-title";
import { bandInviteAction, bandInviteLoader } from "~/modules/profiles/band-invite-route.server";
import { BandInvitePage } from "~/modules/profiles/band-invite-page";
import type { Route } from "./+types/band-invite.$id";

export const handle = { routeName: "band-invite" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Band invitation");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return bandInviteLoader(request, context, params.id);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return bandInviteAction(request, context, params.id);
}

export default function BandInviteRoute({ loaderData }: Route.ComponentProps) {
  return <BandInvitePage data={loaderData} />;
}
