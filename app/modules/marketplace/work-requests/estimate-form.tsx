import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { FieldErrors, Field, FormAlert, SubmitButton, TextareaField } from "~/components/forms";
import { LIMITS } from "../marketplace-rules";
import { LINE_ITEM_ROWS } from "./work-request-forms";

/**
 * The provider's estimate form (a first estimate or a new version): line items in dollars (blank rows are
 * ignored, so it works without JavaScript), delivery days, revisions included, optional points in % on the
 * request's song, and the date the offer expires. Posts `intent=estimate` to the estimate page.
 */
export function EstimateForm({
  lastResult,
  revising,
  hasSong,
  previous,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  revising: boolean;
  hasSong: boolean;
  /** The latest version, to start a revision from. */
  previous?: {
    lineItems: Array<{ description: string; amountCents: number }>;
    deliveryDays: number;
    revisionsIncluded: number;
    pointsBps: number | null;
  } | null;
}) {
  const defaultExpiry = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const [form, fields] = useForm({
    id: "estimate-form",
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: {
      lineItems: Array.from({ length: LINE_ITEM_ROWS }, (_, i) => {
        const item = previous?.lineItems[i];
        return item
          ? {
              description: item.description,
              amount: (item.amountCents / 100).toFixed(2),
            }
          : { description: "", amount: "" };
      }),
      deliveryDays: previous ? String(previous.deliveryDays) : "",
      revisionsIncluded: previous ? String(previous.revisionsIncluded) : "2",
      points: previous?.pointsBps ? (previous.pointsBps / 100).toFixed(2) : "",
      expiresAt: defaultExpiry,
      note: "",
    },
  });
  const rows = fields.lineItems.getFieldList();
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormAlert id={form.errorId} errors={form.errors} />
      <fieldset className="space-y-2" aria-describedby={fields.lineItems.errors?.length ? fields.lineItems.errorId : undefined}>
        <legend className="text-sm font-medium text-stone-800">Line items (USD)</legend>
        <p className="text-xs text-stone-500">Up to {LINE_ITEM_ROWS} lines here; blank lines are left out.</p>
        {rows.slice(0, LINE_ITEM_ROWS).map((row, index) => {
          const item = row.getFieldset();
          return (
            <div key={row.key} className="grid gap-2 sm:grid-cols-[minmax(0,3fr)_minmax(0,1fr)]">
              <Field
                label={`Line ${index + 1} description`}
                inputProps={{
                  ...getInputProps(item.description, { type: "text" }),
                  maxLength: LIMITS.lineItemDescriptionMax,
                  autoComplete: "off",
                }}
                errors={item.description.errors}
                errorId={item.description.errorId}
              />
              <Field
                label={`Line ${index + 1} amount`}
                inputProps={{
                  ...getInputProps(item.amount, { type: "text" }),
                  inputMode: "decimal",
                  placeholder: "250.00",
                  autoComplete: "off",
                }}
                errors={item.amount.errors}
                errorId={item.amount.errorId}
              />
            </div>
          );
        })}
        {/* After a refused post the reply may carry fewer rows: blank ones are drawn again. */}
        {Array.from({ length: Math.max(0, LINE_ITEM_ROWS - rows.length) }, (_, k) => rows.length + k).map((index) => (
          <div key={`blank-${index}`} className="grid gap-2 sm:grid-cols-[minmax(0,3fr)_minmax(0,1fr)]">
            <Field
              label={`Line ${index + 1} description`}
              inputProps={{
                name: `lineItems[${index}].description`,
                type: "text",
                maxLength: LIMITS.lineItemDescriptionMax,
                autoComplete: "off",
              }}
            />
            <Field
              label={`Line ${index + 1} amount`}
              inputProps={{
                name: `lineItems[${index}].amount`,
                type: "text",
                inputMode: "decimal",
                placeholder: "250.00",
                autoComplete: "off",
              }}
            />
          </div>
        ))}
        <FieldErrors id={fields.lineItems.errorId} errors={fields.lineItems.errors} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Delivery (days)"
          inputProps={{
            ...getInputProps(fields.deliveryDays, { type: "number" }),
            min: 1,
            max: LIMITS.deliveryDaysMax,
            step: 1,
          }}
          errors={fields.deliveryDays.errors}
          errorId={fields.deliveryDays.errorId}
        />
        <Field
          label="Revisions included"
          inputProps={{
            ...getInputProps(fields.revisionsIncluded, { type: "number" }),
            min: 0,
            max: LIMITS.revisionsMax,
            step: 1,
          }}
          errors={fields.revisionsIncluded.errors}
          errorId={fields.revisionsIncluded.errorId}
        />
        <Field
          label="Points (% of master royalties, optional)"
          inputProps={{
            ...getInputProps(fields.points, { type: "text" }),
            inputMode: "decimal",
            placeholder: hasSong ? "2.5" : "No song linked",
            autoComplete: "off",
          }}
          errors={fields.points.errors}
          errorId={fields.points.errorId}
          help={hasSong ? "A share of the song's master royalties, proposed as a split when the project completes." : "Only when the request names a song."}
        />
        <Field
          label="Offer expires on"
          inputProps={{ ...getInputProps(fields.expiresAt, { type: "date" }) }}
          errors={fields.expiresAt.errors}
          errorId={fields.expiresAt.errorId}
          help={`Within ${LIMITS.expiryDaysMax} days; the offer holds until the end of that day (UTC).`}
        />
      </div>
      <TextareaField
        label="Note to the client (optional)"
        textareaProps={{
          ...getTextareaProps(fields.note),
          maxLength: LIMITS.noteMax,
          rows: 3,
        }}
        errors={fields.note.errors}
        errorId={fields.note.errorId}
      />
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton name="intent" value="estimate" pendingLabel="Sending…">
          {revising ? "Send revised estimate" : "Send estimate"}
        </SubmitButton>
      </div>
    </Form>
  );
}
