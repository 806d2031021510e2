import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Field, FieldErrors, FormAlert, SelectField, SubmitButton, TextareaField } from "~/components/forms";
import type { RateUnit, ReferenceKind } from "~/db/schema";
import type { ProfileEditorLoaderData } from "./profile-editor-route.server";
import { centsToDollarsText, LIMITS, profileDetailsSchema, referenceField, USERNAME_HINT } from "./profile-schemas";
import { PROFILE_TYPE_INFO, RATE_UNIT_LABELS, REFERENCE_LABELS } from "./profile-types";

/**
 * The details form of every profile type. Repeated rows (rates, credits, links) are Conform list fields
 * with a few empty spare rows always rendered, so the form works without JavaScript; empty rows are
 * ignored when saving, and saving adds new spare rows. After an error every row comes back as typed.
 */

/** Empty rows shown after the filled ones, up to the list's limit. */
const SPARE_ROWS = { links: 2, sampleLinks: 2, rates: 2, credits: 3 } as const;

function withSpares<T>(rows: T[], empty: T, spare: number, max: number): T[] {
  const count = Math.min(max, rows.length + spare);
  return [...rows, ...Array.from({ length: Math.max(0, count - rows.length) }, () => ({ ...empty }))];
}

type Row = Record<string, string>;
/** A value of the form: a text, a checkbox group's ids, or a list of rows. */
type DetailsValue = string | string[] | Row[];
type ListField = FieldMetadata<Row[] | undefined>;

export function ProfileDetailsForm({ data, lastResult }: { data: ProfileEditorLoaderData; lastResult: SubmissionResult<string[]> | undefined }) {
  const { profile, type, rates, values, options } = data;
  const info = PROFILE_TYPE_INFO[type];
  const schema = profileDetailsSchema(type);
  const emptyLink = { label: "", url: "" };
  const defaultValue: Record<string, DetailsValue> = {
    name: profile.name,
    username: profile.username,
    bio: profile.bio,
    location: profile.location,
    links: withSpares(
      profile.links.map((l) => ({ label: l.label, url: l.url })),
      emptyLink,
      SPARE_ROWS.links,
      LIMITS.links,
    ),
  };
  for (const kind of info.reference) defaultValue[referenceField(kind)] = values[kind].map((v) => String(v.id));
  if (info.provider) {
    defaultValue.rates = withSpares(
      rates.map((r) => ({ label: r.label, amount: centsToDollarsText(r.amountCents), unit: r.unit })),
      { label: "", amount: "", unit: "" },
      SPARE_ROWS.rates,
      LIMITS.rates,
    );
    defaultValue.credits = withSpares(
      profile.credits.map((c) => ({ title: c.title, role: c.role, year: c.year === null ? "" : String(c.year) })),
      { title: "", role: "", year: "" },
      SPARE_ROWS.credits,
      LIMITS.credits,
    );
    defaultValue.sampleLinks = withSpares(
      profile.sampleLinks.map((l) => ({ label: l.label, url: l.url })),
      emptyLink,
      SPARE_ROWS.sampleLinks,
      LIMITS.sampleLinks,
    );
  }

  // The fields differ per type; the form is typed loosely and each part reads the fields it needs.
  const [form, fields] = useForm<Record<string, DetailsValue>, Record<string, unknown>>({
    id: "profile-details",
    lastResult,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const text = (name: string) => fields[name] as FieldMetadata<string | undefined>;
  const list = (name: string) => fields[name] as unknown as ListField;

  return (
    <Form method="post" className="space-y-8" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="details" />
      <FormAlert id={form.errorId} errors={form.errors} />

      <Group title="Basics">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Name"
            inputProps={{ ...getInputProps(text("name"), { type: "text" }), maxLength: LIMITS.name, autoComplete: "off" }}
            errors={text("name").errors}
            errorId={text("name").errorId}
          />
          <Field
            label="Username"
            help={USERNAME_HINT}
            inputProps={{ ...getInputProps(text("username"), { type: "text" }), maxLength: 30, autoComplete: "off", autoCapitalize: "none", spellCheck: false }}
            errors={text("username").errors}
            errorId={text("username").errorId}
          />
        </div>
        <Field
          label="Location"
          help="City and country, like “Nashville, United States”. The directory can filter on it."
          inputProps={{ ...getInputProps(text("location"), { type: "text" }), maxLength: LIMITS.location }}
          errors={text("location").errors}
          errorId={text("location").errorId}
        />
        <TextareaField
          label="Bio"
          help={`Plain text, up to ${LIMITS.bio.toLocaleString("en-US")} characters.`}
          textareaProps={{ ...getTextareaProps(text("bio")), rows: 6, maxLength: LIMITS.bio }}
          errors={text("bio").errors}
          errorId={text("bio").errorId}
        />
      </Group>

      {info.reference.map((kind) => (
        <ValueGroup
          key={kind}
          kind={kind}
          meta={fields[referenceField(kind)] as FieldMetadata<string[] | undefined>}
          carried={values[kind]}
          options={options[kind]}
        />
      ))}

      {info.provider ? (
        <>
          <RowsGroup
            title="Rates"
            description="Your prices in US dollars, like 150 or 150.50. Leave a row empty to skip it; saving adds more empty rows."
            meta={list("rates")}
            noun="Rate"
            render={(row) => (
              <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
                <Field
                  label="What for"
                  inputProps={{ ...getInputProps(row.label, { type: "text" }), maxLength: LIMITS.label }}
                  errors={row.label.errors}
                  errorId={row.label.errorId}
                />
                <Field
                  label="Amount (USD)"
                  inputProps={{ ...getInputProps(row.amount, { type: "text" }), inputMode: "decimal", placeholder: "150.00" }}
                  errors={row.amount.errors}
                  errorId={row.amount.errorId}
                />
                <SelectField
                  label="Charged"
                  selectProps={getSelectProps(row.unit)}
                  options={[
                    { value: "", label: "Choose…" },
                    ...(Object.entries(RATE_UNIT_LABELS) as Array<[RateUnit, string]>).map(([value, label]) => ({ value, label })),
                  ]}
                  errors={row.unit.errors}
                  errorId={row.unit.errorId}
                />
              </div>
            )}
          />
          <RowsGroup
            title="Credits"
            description="Releases and projects you worked on. Leave a row empty to skip it; saving adds more empty rows."
            meta={list("credits")}
            noun="Credit"
            render={(row) => (
              <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,1fr)]">
                <Field
                  label="Title"
                  inputProps={{ ...getInputProps(row.title, { type: "text" }), maxLength: LIMITS.creditText }}
                  errors={row.title.errors}
                  errorId={row.title.errorId}
                />
                <Field
                  label="Role"
                  inputProps={{ ...getInputProps(row.role, { type: "text" }), maxLength: LIMITS.creditText }}
                  errors={row.role.errors}
                  errorId={row.role.errorId}
                />
                <Field
                  label="Year"
                  inputProps={{ ...getInputProps(row.year, { type: "text" }), inputMode: "numeric", maxLength: 4 }}
                  errors={row.year.errors}
                  errorId={row.year.errorId}
                />
              </div>
            )}
          />
          <RowsGroup
            title="Sample links"
            description="Where people can hear your work (https:// addresses)."
            meta={list("sampleLinks")}
            noun="Sample link"
            render={(row) => <LinkRow row={row} />}
          />
        </>
      ) : null}

      <RowsGroup
        title="Links"
        description="Your website and social profiles (https:// addresses)."
        meta={list("links")}
        noun="Link"
        render={(row) => <LinkRow row={row} />}
      />

      <div className="flex justify-end border-t border-stone-100 pt-5 sm:[&>*]:w-auto">
        <SubmitButton name="intent" value="details" pendingLabel="Saving…">
          Save details
        </SubmitButton>
      </div>
    </Form>
  );
}

function Group({ title, description, children, errors }: { title: string; description?: string; children: ReactNode; errors?: ReactNode }) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-semibold text-stone-900">{title}</legend>
      {description ? <p className="-mt-2 text-sm text-stone-600">{description}</p> : null}
      {errors}
      {children}
    </fieldset>
  );
}

/** A checkbox group of one reference kind: the active values, plus retired ones the profile still carries. */
function ValueGroup({
  kind,
  meta,
  carried,
  options,
}: {
  kind: ReferenceKind;
  meta: FieldMetadata<string[] | undefined>;
  carried: ProfileEditorLoaderData["values"][ReferenceKind];
  options: ProfileEditorLoaderData["options"][ReferenceKind];
}) {
  const retired = carried.filter((v) => v.retired);
  const all = [...options.map((o) => ({ ...o, retired: false })), ...retired].sort((a, b) => a.name.localeCompare(b.name));
  const names = new Map(all.map((o) => [String(o.id), o]));
  const labels = REFERENCE_LABELS[kind];
  return (
    <Group title={labels.plural}>
      {all.length === 0 ? (
        <p className="text-sm text-stone-600">No {labels.plural.toLowerCase()} to choose from yet.</p>
      ) : (
        <div className="grid max-h-72 grid-cols-1 gap-x-4 gap-y-2 overflow-y-auto rounded-md border border-stone-200 p-3 sm:grid-cols-2 lg:grid-cols-3">
          {/* Each checkbox carries aria-invalid and points at the group's errors (getCollectionProps). */}
          {getCollectionProps(meta, { type: "checkbox", options: all.map((o) => String(o.id)) }).map(({ key, ...props }) => {
            const option = names.get(props.value)!;
            return (
              <div key={key} className="flex items-start gap-2">
                <input {...props} className="mt-0.5 size-4 rounded border-stone-300 accent-brand-800" />
                <label htmlFor={props.id} className="text-sm text-stone-800">
                  {option.name}
                  {option.retired ? <span className="text-stone-500"> (no longer offered; untick to remove)</span> : null}
                </label>
              </div>
            );
          })}
        </div>
      )}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </Group>
  );
}

function RowsGroup({
  title,
  description,
  meta,
  noun,
  render,
}: {
  title: string;
  description: string;
  meta: ListField;
  noun: string;
  render: (row: ReturnType<ReturnType<ListField["getFieldList"]>[number]["getFieldset"]>) => ReactNode;
}) {
  const rows = meta.getFieldList();
  return (
    <Group title={title} description={description} errors={<FieldErrors id={meta.errorId} errors={meta.errors} />}>
      <ol className="space-y-4">
        {rows.map((row, index) => (
          <li key={row.key} className="rounded-lg border border-stone-200 bg-stone-50/60 p-3">
            <fieldset>
              <legend className="sr-only">
                {noun} {index + 1}
              </legend>
              {render(row.getFieldset())}
            </fieldset>
          </li>
        ))}
      </ol>
    </Group>
  );
}

/** The address is a text input, not type="url": without JavaScript the browser's own check would replace the message beside it. */
function LinkRow({ row }: { row: Record<string, FieldMetadata<string | undefined>> }) {
  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
      <Field
        label="Label"
        inputProps={{ ...getInputProps(row.label, { type: "text" }), maxLength: LIMITS.label }}
        errors={row.label.errors}
        errorId={row.label.errorId}
      />
      <Field
        label="Address"
        inputProps={{
          ...getInputProps(row.url, { type: "text" }),
          inputMode: "url",
          autoCapitalize: "none",
          spellCheck: false,
          maxLength: LIMITS.url,
          placeholder: "https://",
        }}
        errors={row.url.errors}
        errorId={row.url.errorId}
      />
    </div>
  );
}
