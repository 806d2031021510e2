import type { StripeOnboardingStatus } from "~/db/schema";

/**
 * The Stripe Connect option on payouts-provider. Rendered only when Stripe is configured (the
 * loader's `stripeMethodData` is null otherwise). The form is a plain document POST to the member's
 * payment-account-stripe-onboarding action, which answers with a redirect to Stripe's hosted onboarding
 * (another origin), so it works without JavaScript and is never fetched as data.
 */
export interface StripeMethodProps {
  data: {
    memberId: number;
    own: boolean;
    accountId: string | null;
    status: StripeOnboardingStatus;
    active: boolean;
    needsCountry: boolean;
  };
}

const STATUS_TEXT: Record<StripeOnboardingStatus, string> = {
  none: "Not set up",
  pending: "Onboarding not finished",
  restricted: "Stripe needs more information",
  complete: "Ready",
};

const sectionClass = "rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6";
const buttonClass =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto";

export function StripeMethod({ data }: StripeMethodProps) {
  const { memberId, own, accountId, status, active, needsCountry } = data;
  const action = `/member/${memberId}/payment-account-stripe-onboarding`;
  const label = !accountId ? "Set up Stripe" : status === "complete" ? "Use Stripe for payouts" : "Continue onboarding";
  return (
    <section aria-labelledby="stripe-heading" className={sectionClass} data-testid="stripe-method">
      <h2 id="stripe-heading" className="text-lg font-semibold">
        Stripe Connect
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        Stripe pays your payouts to your own bank account or card. You set up a Stripe Express account on Stripe's site; Stripe's fee for each payout is shown
        before you request it.
      </p>
      <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className="text-stone-600">Stripe account</dt>
        <dd data-testid="stripe-status">
          {STATUS_TEXT[status]}
          {active && status === "complete" ? " — your payouts are sent through Stripe" : null}
        </dd>
      </dl>
      {own && !(active && status === "complete") ? (
        <form method="post" action={action} className="mt-4 space-y-4" aria-labelledby="stripe-heading">
          {needsCountry ? (
            <div>
              <label htmlFor="stripe-country" className="block text-sm font-medium text-stone-800">
                Country of residence
              </label>
              <input
                id="stripe-country"
                name="country"
                type="text"
                required
                maxLength={2}
                autoComplete="country"
                aria-describedby="stripe-country-help"
                className="mt-1 block w-full rounded-md border border-stone-300 px-3 py-2 text-sm shadow-sm sm:w-32"
              />
              <p id="stripe-country-help" className="mt-1 text-xs text-stone-600">
                Two letters, such as US, GB or DE.
              </p>
            </div>
          ) : null}
          <div className="flex justify-end">
            <button type="submit" className={buttonClass}>
              {label}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
