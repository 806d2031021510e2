import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { FormAlert, SubmitButton } from "~/components/forms";

/**
 * The admin queue's pay form for a Stripe request: posts `intent=pay-stripe` and the request id to
 * the queue's own action, which calls `payStripeAndNotify` (a transfer of the net to the member's connected
 * account, then the payment entry). Errors (onboarding not complete, Stripe refused) show in the form's alert.
 */
export function StripePayForm({ requestId, netLabel, lastResult }: { requestId: number; netLabel: string; lastResult: unknown }) {
  // The queue's action answers Conform's reply; it arrives as the route's serialized action data.
  const [form] = useForm({ id: `pay-stripe-${requestId}`, lastResult: lastResult as SubmissionResult<string[]> | undefined, shouldValidate: "onSubmit" });
  return (
    <Form method="post" aria-label={`Pay request #${requestId} through Stripe`} className="space-y-3" {...getFormProps(form)}>
      <input type="hidden" name="requestId" value={requestId} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <p className="text-sm text-stone-600">
        Sends {netLabel} to the member's Stripe account by a Stripe transfer; the transfer id is recorded as the reference.
      </p>
      <SubmitButton
        name="intent"
        value="pay-stripe"
        pendingLabel="Paying…"
        className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto"
      >
        Approve and pay through Stripe
      </SubmitButton>
    </Form>
  );
}
