import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form } from "react-router";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import type { ReleaseDetail } from "~/modules/catalog/catalog.server";
import { releaseFieldAnchor } from "../release-options";
import { buttonPrimary, buttonSecondary, ReasonNote, type ReleaseFormProps, StepField } from "./release-page-parts";

export function ReleaseCoverForm({
  release,
  coverUrl,
  action,
  step,
  lastResult,
}: ReleaseFormProps & {
  release: Pick<ReleaseDetail, "title" | "coverArtPath" | "coverArtWidth" | "coverArtHeight" | "rejectionReasons">;
  coverUrl: string | null;
}) {
  const [form, fields] = useForm({ id: "release-cover", lastResult });
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="size-40 shrink-0 overflow-hidden rounded-md border border-stone-200 bg-stone-100">
          {coverUrl ? (
            <img src={coverUrl} alt={`Cover art of ${release.title}`} width={160} height={160} className="size-full object-cover" />
          ) : (
            <p className="flex size-full items-center justify-center p-2 text-center text-xs text-stone-500">No cover art yet</p>
          )}
        </div>
        <div className="min-w-0 flex-1 space-y-3">
          {release.coverArtWidth ? (
            <p className="text-sm text-stone-600">
              Uploaded: {release.coverArtWidth}x{release.coverArtHeight} pixels.
            </p>
          ) : null}
          <ReasonNote reasons={release.rejectionReasons} fields={["cover"]} />
          <Form method="post" action={action} encType="multipart/form-data" className="space-y-3" {...getFormProps(form)}>
            <StepField step={step} />
            <FormAlert id={form.errorId} errors={form.errors} />
            <Field
              label="Cover art"
              errors={fields.cover.errors}
              errorId={fields.cover.errorId}
              help="A square JPEG or PNG in RGB colour, at least 1400x1400 pixels (3000x3000 recommended), at most 5 MB. No URLs, social handles or prices on it."
              inputProps={{ ...getInputProps(fields.cover, { type: "file" }), id: releaseFieldAnchor("cover"), accept: "image/jpeg,image/png" }}
            />
            <div className="flex flex-wrap gap-2">
              <SubmitButton name="intent" value="cover" pendingLabel="Uploading…" className={buttonPrimary}>
                Upload cover art
              </SubmitButton>
            </div>
          </Form>
          {release.coverArtPath ? (
            <Form method="post" action={action}>
              <StepField step={step} />
              <button type="submit" name="intent" value="remove-cover" className={buttonSecondary}>
                Remove cover art
              </button>
            </Form>
          ) : null}
        </div>
      </div>
    </div>
  );
}
