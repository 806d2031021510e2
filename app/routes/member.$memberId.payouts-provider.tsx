import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { data, Form, Link } from "react-router";
import { z } from "zod";
import { DateTime } from "~/components/formatting";
import { Field, FieldErrors, FormAlert, SubmitButton, useFormResetKey } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { requireFreshConfirmation } from "~/modules/accounts/step-up.server";
import { redirectAfterSuccess } from "~/modules/flash/flash.server";
import { notFound } from "~/modules/http/route-errors.server";
import { currentTaxDeclaration, declareTaxStatus, findPayoutAccount, saveManualPayoutAccount, taxStatusOf } from "~/modules/payouts/payout-accounts.server";
import { recordPayoutDetailChange } from "~/modules/payouts/payout-changes.server";
import { PayoutError } from "~/modules/payouts/payout-errors";
import { stripeMethodData } from "~/modules/payouts/stripe/stripe-connect.server";
import { StripeMethod } from "~/modules/payouts/stripe/stripe-method";
import { NON_US_WITHHOLDING_BPS, US_BACKUP_WITHHOLDING_BPS, withholdingBps } from "~/modules/payouts/payout-math";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { requestInfoContext } from "~/request-context";
import type { Route } from "./+types/member.$memberId.payouts-provider";

export const handle = { routeName: "member-payouts-provider" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Payouts");

/**
 * How a member is paid (decision 018): the manual bank transfer's details (stored encrypted, only
 * the last 4 shown) and the tax status (W-9 / W-8, TIN last 4), which decides the withholding. Stripe Connect
 * is not offered yet: it appears here once it is built and STRIPE_SECRET_KEY is set.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const [account, declaration, status, stripe] = await Promise.all([
    findPayoutAccount(memberId),
    currentTaxDeclaration(memberId),
    taxStatusOf(memberId),
    // null when Stripe is not configured: the option is not shown.
    stripeMethodData(user, memberId),
  ]);
  return {
    memberId,
    // Only the member changes these; an administrator visiting the area sees them.
    own: user.id === memberId,
    account: account && { method: account.method, country: account.country, bankLast4: account.bankLast4 },
    declaration: declaration && {
      form: declaration.form,
      country: declaration.country,
      tinLast4: declaration.tinLast4,
      signedAt: declaration.signedAt.toISOString(),
    },
    residence: status.country ?? status.declaration?.country ?? null,
    withholdingBps: withholdingBps(status),
    stripe,
  };
}

const required = (message: string, max: number) => z.string({ error: message }).max(max, message);

const BankSchema = z.object({
  intent: z.literal("bank"),
  country: required("Enter your country of tax residence as two letters, such as US or GB.", 2),
  accountHolder: required("Enter the account holder's name.", 140),
  bankName: z.string().max(140, "The bank's name can be at most 140 characters.").optional(),
  accountNumber: required("Enter the account number or IBAN.", 64),
  routingCode: z.string().max(40, "Enter the routing number, sort code or BIC as the bank gives it.").optional(),
});
const TaxSchema = z.object({
  intent: z.literal("tax"),
  form: z.enum(["w9", "w8"], { error: "Choose a W-9 (US persons) or a W-8 (everyone else)." }),
  legalName: required("Enter the name shown on your tax return.", 140),
  country: required("Enter the country the form certifies as two letters, such as US or GB.", 2),
  tin: required("Enter your taxpayer identification number (it ends in 4 digits).", 40),
});
const ActionSchema = z.discriminatedUnion("intent", [BankSchema, TaxSchema]);

type Intent = "bank" | "tax";

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const formData = await readForm(request);
  const intent: Intent = formData.get("intent") === "tax" ? "tax" : "bank";
  const submission = parseForm(formData, { schema: ActionSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const path = new URL(request.url).pathname;
  const value = submission.value;
  const { ip } = context.get(requestInfoContext);
  // Only the member changes these (the services answer 404 to anyone else): refused before asking to confirm.
  if (user.id !== memberId) throw notFound();
  // Changing how the member is paid needs a confirmation within the last 10 minutes.
  await requireFreshConfirmation(request, user, formData, ip);
  try {
    if (value.intent === "bank") {
      const before = await findPayoutAccount(memberId);
      const saved = await saveManualPayoutAccount(user, memberId, {
        country: value.country,
        accountHolder: value.accountHolder,
        bankName: value.bankName ?? "",
        accountNumber: value.accountNumber,
        routingCode: value.routingCode ?? "",
      });
      await recordPayoutDetailChange(user, {
        kind: before && before.method !== "manual" ? "method" : "bank_details",
        summary: `Bank transfer to the account ending ${saved.bankLast4} (${saved.country})`,
        ip,
      });
      return redirectAfterSuccess(path, "bank", `You are paid by bank transfer to the account ending ${saved.bankLast4}.`);
    }
    const declared = await declareTaxStatus(user, memberId, value, { ip });
    await recordPayoutDetailChange(user, {
      kind: "tax_status",
      summary: `${declared.form === "w9" ? "W-9" : "W-8"} for ${declared.country}, TIN ending ${declared.tinLast4}`,
      ip,
    });
    return redirectAfterSuccess(path, "tax", `Your ${declared.form === "w9" ? "W-9" : "W-8"} is recorded (TIN ending ${declared.tinLast4}).`);
  } catch (error) {
    if (error instanceof PayoutError) {
      if (error.status === 404) throw notFound();
      const reply = error.field ? submission.reply({ fieldErrors: { [error.field]: [error.message] } }) : submission.reply({ formErrors: [error.message] });
      return data({ intent: value.intent, result: reply }, { status: error.status });
    }
    throw error;
  }
}

const percent = (bps: number) => `${bps / 100}%`;

/** The rate, said once and in bold, in the sentence that explains it. */
function WithholdingExplanation({ bps, residence, form }: { bps: number; residence: string | null; form: string | null }) {
  const rate = <strong className="text-stone-900">{percent(bps)}</strong>;
  if (bps === 0)
    return (
      <>
        {rate}: no tax is withheld from your payouts, your {form === "w9" ? "W-9" : "W-8"} is on file.
      </>
    );
  if (bps === US_BACKUP_WITHHOLDING_BPS) return <>{rate} US backup withholding applies to each payout until you send a W-9.</>;
  if (bps === NON_US_WITHHOLDING_BPS && residence === null)
    return <>{rate} is withheld from each payout until you tell us your country and send the form that fits it.</>;
  return (
    <>
      {rate} is withheld from each payout until you send a W-8 for {residence}.
    </>
  );
}

const sectionClass = "rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6";

export default function PayoutsProviderRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { account, declaration, own, memberId } = loaderData;
  const resetKey = useFormResetKey();
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Payouts</h1>
        <p className="mt-1 text-sm text-stone-600">
          How you are paid and your tax status. Request a payout on{" "}
          <Link to={`/member/${memberId}/royalty-payment-requests`} className="font-medium text-brand-800 underline">
            Royalty Payment Requests
          </Link>
          .
        </p>
      </header>

      <section aria-labelledby="current-heading" className={sectionClass}>
        <h2 id="current-heading" className="text-lg font-semibold">
          Current settings
        </h2>
        <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="text-stone-600">Payout method</dt>
          <dd data-testid="payout-method">
            {account?.method === "stripe" ? (
              "Stripe Connect"
            ) : account ? (
              <>
                Manual bank transfer, account ending <span className="font-mono">{account.bankLast4 ?? "—"}</span> ({account.country})
              </>
            ) : (
              "Not chosen yet"
            )}
          </dd>
          <dt className="text-stone-600">Tax status</dt>
          <dd data-testid="tax-status">
            {declaration ? (
              <>
                {declaration.form === "w9" ? "W-9 (US person)" : "W-8 (non-US person)"} for {declaration.country}, TIN ending{" "}
                <span className="font-mono">{declaration.tinLast4}</span>, signed <DateTime iso={declaration.signedAt} />
              </>
            ) : (
              "No tax form on file"
            )}
          </dd>
          <dt className="text-stone-600">Withholding</dt>
          <dd data-testid="withholding" className="text-stone-600">
            <WithholdingExplanation bps={loaderData.withholdingBps} residence={loaderData.residence} form={declaration?.form ?? null} />
          </dd>
        </dl>
      </section>

      {loaderData.stripe ? <StripeMethod data={loaderData.stripe} /> : null}

      {own ? (
        <>
          <BankForm key={`bank-${resetKey}`} lastResult={actionData?.intent === "bank" ? actionData.result : undefined} current={account} />
          <TaxForm key={`tax-${resetKey}`} lastResult={actionData?.intent === "tax" ? actionData.result : undefined} current={declaration} />
        </>
      ) : (
        <p className="text-sm text-stone-600">Only the member can change how they are paid and their tax status.</p>
      )}
    </div>
  );
}

type LastResult = NonNullable<Route.ComponentProps["actionData"]>["result"] | undefined;

function BankForm({ lastResult, current }: { lastResult: LastResult; current: Route.ComponentProps["loaderData"]["account"] }) {
  const [form, fields] = useForm<z.input<typeof BankSchema>>({
    id: "bank-details",
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: { country: current?.country },
  });
  return (
    <section aria-labelledby="bank-heading" className={sectionClass}>
      <h2 id="bank-heading" className="text-lg font-semibold">
        Manual bank transfer
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        {current ? "Enter new details to replace the account ending " + (current.bankLast4 ?? "") + "." : "An administrator sends each payout to this account."}{" "}
        Your details are stored encrypted; only the last 4 characters of the account number are ever shown. A manual transfer has no fee.
      </p>
      <Form method="post" className="mt-4 space-y-4" aria-labelledby="bank-heading" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="bank" />
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          label="Country of tax residence"
          inputProps={{ ...getInputProps(fields.country, { type: "text" }), autoComplete: "country", maxLength: 2 }}
          errors={fields.country.errors}
          errorId={fields.country.errorId}
          help="Two letters, such as US, GB or DE."
        />
        <Field
          label="Account holder"
          inputProps={{ ...getInputProps(fields.accountHolder, { type: "text" }), autoComplete: "name", maxLength: 140 }}
          errors={fields.accountHolder.errors}
          errorId={fields.accountHolder.errorId}
        />
        <Field
          label="Bank name (optional)"
          inputProps={{ ...getInputProps(fields.bankName, { type: "text" }), autoComplete: "off", maxLength: 140 }}
          errors={fields.bankName.errors}
          errorId={fields.bankName.errorId}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Account number or IBAN"
            inputProps={{ ...getInputProps(fields.accountNumber, { type: "text" }), autoComplete: "off", spellCheck: false, maxLength: 64 }}
            errors={fields.accountNumber.errors}
            errorId={fields.accountNumber.errorId}
          />
          <Field
            label="Routing number, sort code or BIC (optional)"
            inputProps={{ ...getInputProps(fields.routingCode, { type: "text" }), autoComplete: "off", spellCheck: false, maxLength: 40 }}
            errors={fields.routingCode.errors}
            errorId={fields.routingCode.errorId}
          />
        </div>
        <div className="flex justify-end">
          <SubmitButton
            pendingLabel="Saving…"
            className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto"
          >
            Save bank details
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function TaxForm({ lastResult, current }: { lastResult: LastResult; current: Route.ComponentProps["loaderData"]["declaration"] }) {
  const [form, fields] = useForm<z.input<typeof TaxSchema>>({
    id: "tax-status",
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: { form: current?.form, country: current?.country },
  });
  const formErrorId = fields.form.errorId;
  const formInvalid = Boolean(fields.form.errors?.length);
  return (
    <section aria-labelledby="tax-heading" className={sectionClass}>
      <h2 id="tax-heading" className="text-lg font-semibold">
        Tax status
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        Without a form that fits your country, {percent(US_BACKUP_WITHHOLDING_BPS)} (US) or {percent(NON_US_WITHHOLDING_BPS)} (everyone else) is withheld from
        each payout. Only the last 4 digits of your taxpayer identification number are kept. A new form replaces the one on file.
      </p>
      <Form method="post" className="mt-4 space-y-4" aria-labelledby="tax-heading" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="tax" />
        <FormAlert id={form.errorId} errors={form.errors} />
        <fieldset aria-describedby={formInvalid ? formErrorId : undefined}>
          <legend className="text-sm font-medium text-stone-800">Form</legend>
          <div className="mt-2 space-y-2">
            {(
              [
                ["w9", "W-9: I am a US person (citizen or resident)"],
                ["w8", "W-8: I am not a US person"],
              ] as const
            ).map(([value, label]) => (
              <div key={value} className="flex items-start gap-2">
                <input
                  {...getInputProps(fields.form, { type: "radio", value })}
                  id={`tax-form-${value}`}
                  aria-invalid={formInvalid || undefined}
                  className="mt-0.5 size-4 accent-brand-800"
                />
                <label htmlFor={`tax-form-${value}`} className="text-sm text-stone-800">
                  {label}
                </label>
              </div>
            ))}
          </div>
          <FieldErrors id={formErrorId} errors={fields.form.errors} />
        </fieldset>
        <Field
          label="Legal name"
          inputProps={{ ...getInputProps(fields.legalName, { type: "text" }), autoComplete: "name", maxLength: 140 }}
          errors={fields.legalName.errors}
          errorId={fields.legalName.errorId}
          help="As shown on your tax return."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Country"
            inputProps={{ ...getInputProps(fields.country, { type: "text" }), autoComplete: "country", maxLength: 2 }}
            errors={fields.country.errors}
            errorId={fields.country.errorId}
            help="The country the form certifies, such as US."
          />
          <Field
            label="Taxpayer identification number"
            inputProps={{ ...getInputProps(fields.tin, { type: "text" }), autoComplete: "off", spellCheck: false, maxLength: 40 }}
            errors={fields.tin.errors}
            errorId={fields.tin.errorId}
            help="SSN, EIN or your country's tax number."
          />
        </div>
        <div className="flex justify-end">
          <SubmitButton
            pendingLabel="Saving…"
            className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto"
          >
            Sign and save tax form
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
