import { generate } from "otplib";
import { confirmEnrolment, pendingEnrolment, startEnrolment } from "~/modules/accounts/two-factor.server";

/** Turns two-factor on for a user (as the Account page does); returns the secret and the recovery codes. */
export async function enableTwoFactorFor(user: { id: number; email: string }): Promise<{ secret: string; recovery: string[] }> {
  await startEnrolment(user.id);
  const { secret } = (await pendingEnrolment(user))!;
  // A code one step back, so that a test's own "current" code is still unused.
  const epoch = Math.floor(Date.now() / 1000) - 30;
  const recovery = await confirmEnrolment(user.id, await generate({ secret, epoch }), { now: epoch });
  return { secret, recovery };
}
