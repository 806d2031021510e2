import { data } from "react-router";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import type { TokenLinkCheck } from "./accounts.server";
import { ResetPasswordSchema } from "./schemas";
import { parseForm, readForm } from "~/modules/security/form-body.server";

const HIDDEN = ["password", "passwordConfirmation"];

/** The action behind SetPasswordPage: validate, run `apply`, answer as the link's state says. */
export async function handleSetPassword(
  request: Request,
  apply: (password: string) => Promise<TokenLinkCheck>,
  messages: { invalidLink: string; success: string },
) {
  const submission = parseForm(await readForm(request), { schema: ResetPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: HIDDEN }), { status: 400 });
  const outcome = await apply(submission.value.password);
  if (outcome === "invalid_signature") {
    return data(submission.reply({ formErrors: [INVALID_SIGNATURE], hideFields: HIDDEN }), { status: 403 });
  }
  if (outcome === "invalid_link") {
    return data(submission.reply({ formErrors: [messages.invalidLink], hideFields: HIDDEN }), { status: 400 });
  }
  return redirectWithFlash("/login", { kind: "success", message: messages.success });
}

/** Loader status for a link page: 403 for a bad signature, 410 for a used or expired token. */
export function linkStatus(link: TokenLinkCheck): number {
  return link === "valid" ? 200 : link === "invalid_signature" ? 403 : 410;
}
