import type { SubmissionResult } from "@conform-to/react";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { User } from "~/db/schema";
import { parseForm } from "~/modules/security/form-body.server";
import { attemptLogin } from "./accounts.server";
import { knownDevice } from "./device-cookie.server";
import { LoginSchema } from "./schemas";

/**
 * The login's password step, through remix-auth (decision 004): an `Authenticator` with remix-auth-form's
 * `FormStrategy`. The strategy's verify callback is where the password is checked, with the rate limits
 * and device cookies of `attemptLogin`; it answers what the page needs either way (the user, or the form's
 * reply with its message and status), so a refusal is not an exception. What follows a right password (the
 * second step for two-factor accounts, the session, the legal agreements) stays in the login route.
 */
export type PasswordLogin = { ok: true; user: User; redirect: string | undefined } | { ok: false; status: number; reply: SubmissionResult<string[]> };

export const PASSWORD_STRATEGY = "password";

/**
 * The client's address travels to the strategy on the request the server builds for it (below), never on
 * the browser's: the form was read once already, with the body limits (readForm).
 */
const CLIENT_IP_HEADER = "x-backline-login-ip";

const authenticator = new Authenticator<PasswordLogin>().use(
  new FormStrategy<PasswordLogin>(async ({ form, request }) => {
    const submission = parseForm(form, { schema: LoginSchema });
    if (submission.status !== "success") return { ok: false, status: 400, reply: submission.reply({ hideFields: ["password"] }) };
    const outcome = await attemptLogin({
      ...submission.value,
      ip: request.headers.get(CLIENT_IP_HEADER) ?? "",
      knownDevice: (userId) => knownDevice(request, userId),
    });
    if (!outcome.ok) return { ok: false, status: outcome.status, reply: submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }) };
    return { ok: true, user: outcome.user, redirect: submission.value.redirect };
  }),
  PASSWORD_STRATEGY,
);

/**
 * Checks the email and password of a login form already read (`formData`), as the browser's `request` sent
 * it: its cookies (the device cookie) go with it; `ip` is the client's address as the request context has it.
 */
export function authenticatePassword(request: Request, formData: FormData, ip: string): Promise<PasswordLogin> {
  const body = new URLSearchParams();
  for (const [name, value] of formData) if (typeof value === "string") body.append(name, value);
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", [CLIENT_IP_HEADER]: ip });
  const cookie = request.headers.get("Cookie");
  if (cookie) headers.set("Cookie", cookie);
  return authenticator.authenticate(PASSWORD_STRATEGY, new Request(request.url, { method: "POST", headers, body }));
}
