import { data } from "react-router";
import { pageTitle } from "~/components/page-title";
import { checkTokenLink, resetPassword } from "~/modules/accounts/accounts.server";
import { handleSetPassword, linkStatus } from "~/modules/accounts/set-password-action.server";
import { SetPasswordPage } from "~/modules/accounts/set-password-page";
import type { Route } from "./+types/password-reset.$token";

export const handle = { routeName: "password-reset" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Reset password");

const INVALID_LINK = "This password reset link has already been used or has expired. Request a new one.";

export async function loader({ request, params }: Route.LoaderArgs) {
  const link = await checkTokenLink(request.url, params.token, "password_reset");
  return data({ link }, { status: linkStatus(link) });
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleSetPassword(request, (password) => resetPassword({ token: params.token, url: request.url, password }), {
    invalidLink: INVALID_LINK,
    success: "Your password has been changed. Log in with your new password.",
  });
}

export default function PasswordResetRoute({ loaderData }: Route.ComponentProps) {
  return (
    <SetPasswordPage
      title="Choose a new password"
      intro="Every device logged in to your account will be logged out."
      submitLabel="Save new password"
      link={loaderData.link}
      invalidLinkMessage={INVALID_LINK}
    />
  );
}
