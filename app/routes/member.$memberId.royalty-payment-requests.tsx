import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { useState } from "react";
import { data, Form } from "react-router";
import { z } from "zod";
import { Field, FormAlert, SubmitButton, useFormResetKey } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { requireFreshConfirmation } from "~/modules/accounts/step-up.server";
import { redirectAfterSuccess, redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound } from "~/modules/http/route-errors.server";
import { formatCents, MoneyParseError, parseDollarsToCents, microsToCentsFloor } from "~/modules/ledger/money";
import { taxStatusOf } from "~/modules/payouts/payout-accounts.server";
import { simulatePayout, type PayoutConfig, type PaySchedule, type TaxStatus } from "~/modules/payouts/payout-math";
import {
  ALREADY_REQUESTED,
  availableCents,
  cancelPayoutRequest,
  listMemberPayoutRequests,
  payoutConfig,
  PayoutError,
  previewPayout,
  requestPayout,
} from "~/modules/payouts/payouts.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { requestInfoContext } from "~/request-context";
import type { Route } from "./+types/member.$memberId.royalty-payment-requests";

export const handle = { routeName: "member-royalty-payment-requests" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Royalty Payment Requests");

const cents = (micros: bigint) => microsToCentsFloor(micros).toString();

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const [available, config, tax, requests] = await Promise.all([
    availableCents(memberId),
    payoutConfig(),
    taxStatusOf(memberId),
    listMemberPayoutRequests(user, memberId),
  ]);
  return {
    memberId,
    // The request form's hidden single-use key: submitted twice, it reserves once (requestPayout).
    requestKey: crypto.randomUUID(),
    // Only the member requests and cancels; an administrator visiting the area sees the list.
    own: user.id === memberId,
    availableCents: available.toString(),
    method: tax.method,
    tax: { country: tax.country, declaration: tax.declaration },
    config: {
      minPayoutCents: config.minPayoutCents.toString(),
      fees: Object.fromEntries(Object.entries(config.fees).map(([m, f]) => [m, { fixedCents: f.fixedCents.toString(), bps: f.bps }])) as Record<
        string,
        { fixedCents: string; bps: number }
      >,
      schedule: config.schedule,
    },
    requests: requests.map((r) => ({
      id: r.id,
      status: r.status,
      method: r.method,
      amountCents: cents(r.amountMicros),
      feeCents: cents(r.feeMicros),
      withholdingCents: cents(r.withholdingMicros),
      netCents: cents(r.netMicros),
      reference: r.reference,
      rejectionReason: r.rejectionReason,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

const ActionSchema = z.object({
  intent: z.enum(["request", "preview", "cancel"]),
  amount: z.string().max(40).optional(),
  requestId: z.string().max(12).optional(),
  idempotencyKey: z
    .string()
    .regex(/^[\w-]{16,64}$/)
    .optional(),
});

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: ActionSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), preview: null }, { status: 400 });
  const { intent, amount = "", requestId, idempotencyKey } = submission.value;
  const path = new URL(request.url).pathname;
  try {
    if (intent === "cancel") {
      const id = Number(requestId);
      if (!Number.isInteger(id) || id <= 0) throw notFound();
      const canceled = await cancelPayoutRequest(user, id);
      return redirectAfterSuccess(
        path,
        canceled.id,
        `Request #${canceled.id} was canceled; ${formatCents(microsToCentsFloor(canceled.amountMicros))} is available again.`,
      );
    }
    if (intent === "preview") {
      const { simulation, problem } = await previewPayout(user, memberId, amount);
      return data(
        {
          result: submission.reply(problem ? { fieldErrors: { amount: [problem.message] } } : undefined),
          preview: {
            amountCents: simulation.amountCents.toString(),
            feeCents: simulation.feeCents.toString(),
            withholdingBps: simulation.withholdingBps,
            withholdingCents: simulation.withholdingCents.toString(),
            netCents: simulation.netCents.toString(),
            nextPayDate: simulation.nextPayDate,
          },
        },
        { status: problem ? 400 : 200 },
      );
    }
    // Requesting a payout needs a confirmation within the last 10 minutes; previews and cancels do not.
    // Only the member requests (the service answers 404 to anyone else): refused before asking to confirm.
    if (user.id !== memberId) throw notFound();
    await requireFreshConfirmation(request, user, formData, context.get(requestInfoContext).ip);
    const created = await requestPayout(user, memberId, amount, { idempotencyKey });
    return redirectAfterSuccess(
      path,
      created.id,
      `Request #${created.id} for ${formatCents(microsToCentsFloor(created.amountMicros))} is pending; the amount is reserved.`,
    );
  } catch (error) {
    if (error instanceof PayoutError) {
      if (error.status === 404) throw notFound();
      // The same form again (a reload, a second click): the first request stands; say so on the page.
      if (error.status === ALREADY_REQUESTED) return redirectWithFlash(path, { kind: "info", message: error.message });
      const reply =
        error.field === "amount" ? submission.reply({ fieldErrors: { amount: [error.message] } }) : submission.reply({ formErrors: [error.message] });
      return data({ result: reply, preview: null }, { status: error.status });
    }
    throw error;
  }
}

/** The simulator as the member types: the same pure function the server uses, on the loader's config. */
function livePreview(amount: string, method: "manual" | "stripe", tax: TaxStatus, config: PayoutConfig) {
  try {
    const c = parseDollarsToCents(amount);
    return c > 0n ? simulatePayout(c, method, tax, config, new Date()) : null;
  } catch (error) {
    if (error instanceof MoneyParseError) return null;
    throw error;
  }
}

const STATUS_LABEL: Record<string, string> = {
  pending: "Pending",
  approved: "Approved",
  paid: "Paid",
  rejected: "Rejected",
  canceled: "Canceled",
  reversed: "Reversed by Stripe",
};

export default function RoyaltyPaymentRequestsRoute({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({ id: "payout-request", lastResult: actionData?.result, shouldValidate: "onSubmit" });
  // What the member typed belongs to one filling of the form: a request that went through (the reset key
  // changes) empties the field, and the preview of the old amount goes with it.
  const resetKey = useFormResetKey();
  const [typing, setTyping] = useState<{ key: string; value: string } | null>(null);
  const typed = typing?.key === resetKey ? typing.value : null;
  const config: PayoutConfig = {
    minPayoutCents: BigInt(loaderData.config.minPayoutCents),
    fees: {
      manual: { fixedCents: BigInt(loaderData.config.fees.manual!.fixedCents), bps: loaderData.config.fees.manual!.bps },
      stripe: { fixedCents: BigInt(loaderData.config.fees.stripe!.fixedCents), bps: loaderData.config.fees.stripe!.bps },
    },
    schedule: loaderData.config.schedule as PaySchedule,
  };
  const live = typed === null ? null : livePreview(typed, loaderData.method ?? "manual", loaderData.tax, config);
  const shown = live
    ? {
        amountCents: live.amountCents,
        feeCents: live.feeCents,
        withholdingBps: live.withholdingBps,
        withholdingCents: live.withholdingCents,
        netCents: live.netCents,
        nextPayDate: live.nextPayDate,
      }
    : actionData?.preview
      ? {
          amountCents: BigInt(actionData.preview.amountCents),
          feeCents: BigInt(actionData.preview.feeCents),
          withholdingBps: actionData.preview.withholdingBps,
          withholdingCents: BigInt(actionData.preview.withholdingCents),
          netCents: BigInt(actionData.preview.netCents),
          nextPayDate: actionData.preview.nextPayDate,
        }
      : null;
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Royalty Payment Requests</h1>
        <p className="mt-1 text-sm text-stone-600">
          Available to request: <strong className="text-stone-900">{formatCents(BigInt(loaderData.availableCents))}</strong>. The minimum payout is{" "}
          {formatCents(config.minPayoutCents)}.
        </p>
      </header>

      {loaderData.own && (
        <section aria-label="Request a payout" className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
          {!loaderData.method && <p className="mb-3 text-sm text-amber-800">Choose how you are paid (Payouts) before requesting a payout.</p>}
          <Form key={resetKey} method="post" className="max-w-xl space-y-4" {...getFormProps(form)}>
            <input type="hidden" name="idempotencyKey" value={loaderData.requestKey} />
            <FormAlert id={form.errorId} errors={form.errors} />
            <Field
              label="Amount (USD)"
              inputProps={{
                ...getInputProps(fields.amount, { type: "text" }),
                inputMode: "decimal",
                placeholder: "12.34",
                autoComplete: "off",
                onInput: (e) => setTyping({ key: resetKey, value: e.currentTarget.value }),
              }}
              errors={fields.amount.errors}
              errorId={fields.amount.errorId}
              help="Dollars and cents, such as 12.34."
            />
            {shown && (
              <dl aria-label="Payout preview" className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md bg-stone-50 p-3 text-sm">
                <dt>Amount</dt>
                <dd className="text-right tabular-nums">{formatCents(shown.amountCents)}</dd>
                <dt>Method fee ({loaderData.method ?? "manual"})</dt>
                <dd className="text-right tabular-nums">−{formatCents(shown.feeCents)}</dd>
                <dt>Tax withholding ({(shown.withholdingBps / 100).toFixed(0)}%)</dt>
                <dd className="text-right tabular-nums">−{formatCents(shown.withholdingCents)}</dd>
                <dt className="font-semibold">You receive</dt>
                <dd className="text-right font-semibold tabular-nums">{formatCents(shown.netCents)}</dd>
                <dt>Next pay date</dt>
                <dd className="text-right">{shown.nextPayDate}</dd>
              </dl>
            )}
            <div className="flex flex-wrap justify-end gap-2 sm:[&>*]:w-auto">
              <SubmitButton
                name="intent"
                value="preview"
                pendingLabel="Working…"
                className="rounded-md border border-stone-300 bg-white px-4 py-2.5 text-sm font-semibold"
              >
                Preview
              </SubmitButton>
              <SubmitButton name="intent" value="request" pendingLabel="Requesting…">
                Request payout
              </SubmitButton>
            </div>
          </Form>
        </section>
      )}

      <section aria-label="Your requests" className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 className="text-lg font-semibold">Requests</h2>
        {loaderData.requests.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600">No payout requests yet.</p>
        ) : (
          <table className="mt-3 w-full text-sm">
            <thead>
              <tr className="text-left text-stone-600">
                <th className="py-1">#</th>
                <th>Requested</th>
                <th>Status</th>
                <th className="text-right">Amount</th>
                <th className="text-right">Net</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {loaderData.requests.map((r) => (
                <tr key={r.id} className="border-t border-stone-100 align-top">
                  <td className="py-1.5">{r.id}</td>
                  <td>{r.createdAt.slice(0, 10)}</td>
                  <td>
                    {STATUS_LABEL[r.status]}
                    {r.rejectionReason && <span className="block text-xs text-stone-600">{r.rejectionReason}</span>}
                    {r.reference && <span className="block text-xs text-stone-600">Ref. {r.reference}</span>}
                  </td>
                  <td className="text-right tabular-nums">{formatCents(BigInt(r.amountCents))}</td>
                  <td className="text-right tabular-nums">{formatCents(BigInt(r.netCents))}</td>
                  <td className="text-right">
                    {loaderData.own && r.status === "pending" && (
                      <Form method="post">
                        <input type="hidden" name="requestId" value={r.id} />
                        <button type="submit" name="intent" value="cancel" className="text-sm font-medium text-red-700 underline">
                          Cancel
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
