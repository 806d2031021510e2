import { data } from "react-router";
import { pageTitle } from "~/components/page-title";
import { activateAccount, checkTokenLink } from "~/modules/accounts/accounts.server";
import { handleSetPassword, linkStatus } from "~/modules/accounts/set-password-action.server";
import { SetPasswordPage } from "~/modules/accounts/set-password-page";
import type { Route } from "./+types/activate-account";

export const handle = { routeName: "activate-account" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Activate account");

const INVALID_LINK = "This activation link has already been used or has expired. Ask the person who invited you for a new one.";

function tokenOf(request: Request) {
  return new URL(request.url).searchParams.get("token") ?? "";
}

export async function loader({ request }: Route.LoaderArgs) {
  const link = await checkTokenLink(request.url, tokenOf(request), "activation");
  return data({ link }, { status: linkStatus(link) });
}

export async function action({ request }: Route.ActionArgs) {
  return handleSetPassword(request, (password) => activateAccount({ token: tokenOf(request), url: request.url, password }), {
    invalidLink: INVALID_LINK,
    success: "Your account is active. Log in with your new password.",
  });
}

export default function ActivateAccountRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SetPasswordPage
      title="Activate your account"
      intro="Choose the password you will log in with."
      submitLabel="Activate account"
      link={loaderData.link}
      invalidLinkMessage={INVALID_LINK}
    />
  );
}
