import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { ProfileType } from "~/db/schema";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { CreateProfileSchema, USERNAME_HINT } from "./profile-schemas";
import { PROFILE_TYPE_INFO } from "./profile-types";

/**
 * Creates an artist page or provider profile from a member directory page (intent "create-profile",
 * handled by handleCreateProfile). `lastResult` is the action's result when it was this form's.
 */
export function CreateProfileForm({ type, lastResult }: { type: ProfileType; lastResult?: unknown }) {
  const info = PROFILE_TYPE_INFO[type];
  const [form, fields] = useForm({
    id: `create-profile-${type}`,
    lastResult: lastResult as SubmissionResult<string[]> | undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateProfileSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const noun = info.provider ? `${info.label.toLowerCase()} profile` : "artist page";
  return (
    <Form method="post" className="space-y-4" aria-label={`Create ${noun}`} {...getFormProps(form)}>
      <input type="hidden" name="intent" value="create-profile" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={info.provider ? "Name shown on the profile" : "Artist or band name"}
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off", maxLength: 100 }}
          errors={fields.name.errors}
          errorId={fields.name.errorId}
        />
        <Field
          label="Username"
          help={USERNAME_HINT}
          inputProps={{
            ...getInputProps(fields.username, { type: "text" }),
            autoComplete: "off",
            autoCapitalize: "none",
            spellCheck: false,
            maxLength: 30,
          }}
          errors={fields.username.errors}
          errorId={fields.username.errorId}
        />
      </div>
      <div className="flex justify-end">
        <SubmitButton
          name="intent"
          value="create-profile"
          pendingLabel="Creating…"
          className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto"
        >
          Create {noun}
        </SubmitButton>
      </div>
    </Form>
  );
}
