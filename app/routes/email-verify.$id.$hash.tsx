import { data, Link } from "react-router";
import { AuthCard } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { verifyEmail } from "~/modules/accounts/accounts.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import type { Route } from "./+types/email-verify.$id.$hash";

export const handle = { routeName: "email-verify" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Verify email");

export async function loader({ request, params }: Route.LoaderArgs) {
  const userId = Number(params.id);
  const result = Number.isSafeInteger(userId) ? await verifyEmail({ userId, token: params.hash, url: request.url }) : "invalid_signature";
  if (result === "verified") {
    return redirectWithFlash("/login", { kind: "success", message: "Your email address is verified. You can log in now." });
  }
  if (result === "email_changed") {
    return redirectWithFlash("/login", {
      kind: "success",
      message: "Your new email address is confirmed. Use it the next time you log in.",
    });
  }
  const refusal = {
    invalid_signature: { message: INVALID_SIGNATURE, status: 403 },
    email_taken: { message: "Another account uses this email address now, so your email address was not changed.", status: 409 },
    invalid_link: { message: "This verification link has already been used or has been replaced by a newer one.", status: 410 },
  }[result];
  return data({ message: refusal.message, emailTaken: result === "email_taken" }, { status: refusal.status });
}

export default function EmailVerifyRoute({ loaderData }: Route.ComponentProps) {
  return (
    <AuthCard title="Verify your email address">
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
        {loaderData.message}
      </p>
      <p className="mt-4 text-sm text-stone-600">
        {loaderData.emailTaken
          ? "You can choose another address on your account page."
          : "Log in with your email and password and we will send you a fresh link."}{" "}
        <Link to="/login" className="font-medium text-brand-800 underline">
          Go to login
        </Link>
      </p>
    </AuthCard>
  );
}
