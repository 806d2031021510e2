import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { CheckboxField, Field, FormAlert, SelectField, SubmitButton } from "~/components/forms";
import type { ReleaseDetail } from "~/modules/catalog/catalog.server";
import { RELEASE_TYPE_OPTIONS, releaseFieldAnchor } from "../release-options";
import { ReleaseDetailsSchema } from "../release-schemas";
import { buttonPrimary, ReasonNote, type ReleaseFormProps, StepField } from "./release-page-parts";

type Options = { genre: Array<{ id: number; name: string }>; language: Array<{ id: number; name: string }> };

/** The details form. Without `release` it creates one (intent `create`, with the artist chooser). */
export function ReleaseDetailsForm({
  release,
  artists,
  options,
  action,
  step,
  lastResult,
  submitLabel,
}: ReleaseFormProps & {
  release?: Pick<
    ReleaseDetail,
    | "title"
    | "slug"
    | "type"
    | "upc"
    | "label"
    | "pLine"
    | "cLine"
    | "primaryGenreId"
    | "secondaryGenreId"
    | "languageId"
    | "releaseDate"
    | "previouslyReleased"
    | "previousReleaseDate"
    | "parentalAdvisory"
    | "rejectionReasons"
  >;
  artists?: Array<{ id: number; name: string }>;
  options: Options;
}) {
  const [form, fields] = useForm({
    id: "release-details",
    lastResult,
    defaultValue: release
      ? {
          title: release.title,
          slug: release.slug,
          type: release.type,
          upc: release.upc ?? "",
          label: release.label,
          pLine: release.pLine,
          cLine: release.cLine,
          primaryGenreId: release.primaryGenreId ? String(release.primaryGenreId) : "",
          secondaryGenreId: release.secondaryGenreId ? String(release.secondaryGenreId) : "",
          languageId: release.languageId ? String(release.languageId) : "",
          releaseDate: release.releaseDate ?? "",
          previouslyReleased: release.previouslyReleased ? "on" : undefined,
          previousReleaseDate: release.previousReleaseDate ?? "",
          parentalAdvisory: release.parentalAdvisory ? "on" : undefined,
        }
      : { type: "single", artistId: artists?.length === 1 ? String(artists[0]!.id) : "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReleaseDetailsSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const reasons = release?.rejectionReasons;
  const anchor = (field: string) => ({ id: releaseFieldAnchor(field) });
  const genreOptions = [{ value: "", label: "Choose…" }, ...options.genre.map((g) => ({ value: g.id, label: g.name }))];
  return (
    <Form method="post" action={action} className="space-y-5" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={release ? "details" : "create"} />
      <StepField step={step} />
      <FormAlert id={form.errorId} errors={form.errors} />
      {!release ? (
        <SelectField
          label="Artist page"
          errors={fields.artistId.errors}
          errorId={fields.artistId.errorId}
          selectProps={{ ...getSelectProps(fields.artistId), ...anchor("artist") }}
          options={[{ value: "", label: "Choose…" }, ...(artists ?? []).map((a) => ({ value: a.id, label: a.name }))]}
          help="The artist the release comes out under."
        />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Field
            label="Title"
            errors={fields.title.errors}
            errorId={fields.title.errorId}
            inputProps={{ ...getInputProps(fields.title, { type: "text" }), ...anchor("title"), maxLength: 200 }}
          />
          <ReasonNote reasons={reasons} fields={["title"]} />
        </div>
        {release ? (
          <Field
            label="Address (slug)"
            errors={fields.slug.errors}
            errorId={fields.slug.errorId}
            help="Lowercase letters, digits and hyphens: the end of the release page's address."
            inputProps={{ ...getInputProps(fields.slug, { type: "text" }), ...anchor("slug"), maxLength: 80 }}
          />
        ) : null}
        <div>
          <SelectField
            label="Release type"
            errors={fields.type.errors}
            errorId={fields.type.errorId}
            selectProps={{ ...getSelectProps(fields.type), ...anchor("type") }}
            options={RELEASE_TYPE_OPTIONS}
            help="Single: 1–3 tracks; EP: 4–6 under 30 minutes; Album: 7 or more, or over 30 minutes."
          />
          <ReasonNote reasons={reasons} fields={["type"]} />
        </div>
        <div>
          <Field
            label="UPC / EAN (optional)"
            errors={fields.upc.errors}
            errorId={fields.upc.errorId}
            help="Leave empty and we assign one when you submit."
            inputProps={{ ...getInputProps(fields.upc, { type: "text" }), ...anchor("upc"), inputMode: "numeric", maxLength: 16 }}
          />
          <ReasonNote reasons={reasons} fields={["upc"]} />
        </div>
        <div>
          <Field
            label="Label"
            errors={fields.label.errors}
            errorId={fields.label.errorId}
            inputProps={{ ...getInputProps(fields.label, { type: "text" }), ...anchor("label"), maxLength: 200 }}
          />
          <ReasonNote reasons={reasons} fields={["label"]} />
        </div>
        <Field
          label="℗ line (sound recording owner)"
          errors={fields.pLine.errors}
          errorId={fields.pLine.errorId}
          inputProps={{ ...getInputProps(fields.pLine, { type: "text" }), ...anchor("p_line"), maxLength: 200, placeholder: "℗ 2027 Your Name" }}
        />
        <Field
          label="© line (artwork owner)"
          errors={fields.cLine.errors}
          errorId={fields.cLine.errorId}
          inputProps={{ ...getInputProps(fields.cLine, { type: "text" }), ...anchor("c_line"), maxLength: 200, placeholder: "© 2027 Your Name" }}
        />
        <div>
          <SelectField
            label="Primary genre"
            errors={fields.primaryGenreId.errors}
            errorId={fields.primaryGenreId.errorId}
            selectProps={{ ...getSelectProps(fields.primaryGenreId), ...anchor("primary_genre") }}
            options={genreOptions}
          />
          <ReasonNote reasons={reasons} fields={["primary_genre"]} />
        </div>
        <SelectField
          label="Secondary genre (optional)"
          errors={fields.secondaryGenreId.errors}
          errorId={fields.secondaryGenreId.errorId}
          selectProps={{ ...getSelectProps(fields.secondaryGenreId), ...anchor("secondary_genre") }}
          options={[{ value: "", label: "None" }, ...options.genre.map((g) => ({ value: g.id, label: g.name }))]}
        />
        <div>
          <SelectField
            label="Language"
            errors={fields.languageId.errors}
            errorId={fields.languageId.errorId}
            selectProps={{ ...getSelectProps(fields.languageId), ...anchor("language") }}
            options={[{ value: "", label: "Choose…" }, ...options.language.map((l) => ({ value: l.id, label: l.name }))]}
          />
          <ReasonNote reasons={reasons} fields={["language"]} />
        </div>
        <div>
          <Field
            label="Release date"
            errors={fields.releaseDate.errors}
            errorId={fields.releaseDate.errorId}
            help="A new release: at least 7 days from today, so stores can list it in time."
            inputProps={{ ...getInputProps(fields.releaseDate, { type: "date" }), ...anchor("release_date") }}
          />
          <ReasonNote reasons={reasons} fields={["release_date"]} />
        </div>
        <div className="space-y-3 sm:col-span-2">
          <CheckboxField
            label="This release came out before (a re-release)"
            errors={fields.previouslyReleased.errors}
            errorId={fields.previouslyReleased.errorId}
            inputProps={{ ...getInputProps(fields.previouslyReleased, { type: "checkbox" }), ...anchor("previously_released") }}
          />
          <Field
            label="Original release date (for a re-release)"
            errors={fields.previousReleaseDate.errors}
            errorId={fields.previousReleaseDate.errorId}
            inputProps={{ ...getInputProps(fields.previousReleaseDate, { type: "date" }), ...anchor("previous_release_date") }}
          />
          <CheckboxField
            label="Explicit (parental advisory): at least one track is explicit"
            errors={fields.parentalAdvisory.errors}
            errorId={fields.parentalAdvisory.errorId}
            inputProps={{ ...getInputProps(fields.parentalAdvisory, { type: "checkbox" }), ...anchor("parental_advisory") }}
          />
          <ReasonNote reasons={reasons} fields={["parental_advisory"]} />
        </div>
      </div>
      <div className="flex justify-end">
        <SubmitButton name="intent" value={release ? "details" : "create"} pendingLabel="Saving…" className={buttonPrimary}>
          {submitLabel ?? (release ? "Save details" : "Create release")}
        </SubmitButton>
      </div>
    </Form>
  );
}
