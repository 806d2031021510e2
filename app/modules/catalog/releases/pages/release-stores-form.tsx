import { getCollectionProps, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { CheckboxField, FieldErrors, FormAlert, SubmitButton } from "~/components/forms";
import type { ReleaseDetail } from "~/modules/catalog/catalog.server";
import { releaseFieldAnchor, STORES, TERRITORIES, WORLDWIDE } from "../release-options";
import { ReleaseStoresSchema } from "../release-schemas";
import { buttonPrimary, ReasonNote, type ReleaseFormProps, StepField } from "./release-page-parts";

export function ReleaseStoresForm({
  release,
  action,
  step,
  lastResult,
  submitLabel,
}: ReleaseFormProps & { release: Pick<ReleaseDetail, "stores" | "territories" | "rejectionReasons"> }) {
  const worldwide = release.territories.includes(WORLDWIDE);
  const [form, fields] = useForm({
    id: "release-stores",
    lastResult,
    defaultValue: {
      stores: release.stores,
      worldwide: worldwide || release.territories.length === 0 ? "on" : undefined,
      territories: release.territories.filter((t) => t !== WORLDWIDE),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReleaseStoresSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const storeNames = new Map<string, string>(STORES.map((s) => [s.code, s.name]));
  const territoryNames = new Map<string, string>(TERRITORIES.map((t) => [t.code, t.name]));
  return (
    <Form method="post" action={action} className="space-y-5" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="stores" />
      <StepField step={step} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <fieldset id={releaseFieldAnchor("stores")} className="scroll-mt-20">
        <legend className="text-sm font-medium text-stone-800">Stores</legend>
        <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
          {getCollectionProps(fields.stores, { type: "checkbox", options: STORES.map((s) => s.code) }).map(({ key, ...props }) => (
            <div key={key} className="flex items-start gap-2">
              <input {...props} className="mt-0.5 size-4 rounded border-stone-300 accent-brand-800" />
              <label htmlFor={props.id} className="text-sm text-stone-800">
                {storeNames.get(props.value)}
              </label>
            </div>
          ))}
        </div>
        <FieldErrors id={fields.stores.errorId} errors={fields.stores.errors} />
        <ReasonNote reasons={release.rejectionReasons} fields={["stores"]} />
      </fieldset>
      <fieldset id={releaseFieldAnchor("territories")} className="scroll-mt-20">
        <legend className="text-sm font-medium text-stone-800">Territories</legend>
        <div className="mt-2">
          <CheckboxField label="Worldwide" inputProps={getInputProps(fields.worldwide, { type: "checkbox" })} />
        </div>
        <p className="mt-2 text-xs text-stone-500">Or only these territories (ignored when worldwide is ticked):</p>
        <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-3">
          {getCollectionProps(fields.territories, { type: "checkbox", options: TERRITORIES.map((t) => t.code) }).map(({ key, ...props }) => (
            <div key={key} className="flex items-start gap-2">
              <input {...props} className="mt-0.5 size-4 rounded border-stone-300 accent-brand-800" />
              <label htmlFor={props.id} className="text-sm text-stone-800">
                {territoryNames.get(props.value)}
              </label>
            </div>
          ))}
        </div>
        <FieldErrors id={fields.territories.errorId} errors={fields.territories.errors} />
      </fieldset>
      <div className="flex justify-end">
        <SubmitButton name="intent" value="stores" pendingLabel="Saving…" className={buttonPrimary}>
          {submitLabel ?? "Save stores and territories"}
        </SubmitButton>
      </div>
    </Form>
  );
}
