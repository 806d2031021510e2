import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { Form, Link } from "react-router";
import { Field, FormAlert, SelectField, SubmitButton, TextareaField } from "~/components/forms";
import { LIMITS } from "../../marketplace-rules";
import { SERVICE_OPTIONS } from "../work-request-forms";
import { card, linkClass, PageHeader, type Reply } from "./work-request-page-parts";

export interface CreatePageData {
  area: "member" | "admin";
  own: boolean;
  readOnly: boolean;
  provider: {
    id: number;
    name: string;
    typeLabel: string;
    profilePath: string;
  };
  songs: Array<{ id: number; label: string }>;
}

export function CreateWorkRequestPage({ data, reply }: { data: CreatePageData; reply: Reply }) {
  const [form, fields] = useForm({
    id: "work-request-form",
    lastResult: reply?.result,
    shouldValidate: "onSubmit",
  });
  const { provider } = data;
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <PageHeader title={`Request work from ${provider.name}`}>
        {provider.typeLabel} ·{" "}
        <Link to={provider.profilePath} className={linkClass}>
          Back to the profile
        </Link>
      </PageHeader>
      {data.own || data.readOnly ? (
        <p className={`${card} text-sm text-stone-700`}>
          {data.own ? "This is your own profile: you cannot hire yourself." : "Only the member whose area this is can ask for work here."}
        </p>
      ) : (
        <section aria-label="Work request" className={card}>
          <Form method="post" className="space-y-4" {...getFormProps(form)}>
            <FormAlert id={form.errorId} errors={form.errors} />
            <SelectField
              label="Service"
              selectProps={getSelectProps(fields.service)}
              options={[{ value: "", label: "Choose a service" }, ...SERVICE_OPTIONS]}
              errors={fields.service.errors}
              errorId={fields.service.errorId}
            />
            <TextareaField
              label="Description"
              textareaProps={{
                ...getTextareaProps(fields.description),
                maxLength: LIMITS.descriptionMax,
                rows: 5,
              }}
              errors={fields.description.errors}
              errorId={fields.description.errorId}
              help="What you need, the style, stems or files you have, anything the provider should know."
            />
            <TextareaField
              label="Reference links (optional)"
              textareaProps={{
                ...getTextareaProps(fields.referenceLinks),
                rows: 3,
                placeholder: "https://…",
              }}
              errors={fields.referenceLinks.errors}
              errorId={fields.referenceLinks.errorId}
              help={`One web address per line, up to ${LIMITS.links}.`}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Budget (USD)"
                inputProps={{
                  ...getInputProps(fields.budget, { type: "text" }),
                  inputMode: "decimal",
                  placeholder: "500.00",
                  autoComplete: "off",
                }}
                errors={fields.budget.errors}
                errorId={fields.budget.errorId}
              />
              <Field
                label="Deadline"
                inputProps={getInputProps(fields.deadline, { type: "date" })}
                errors={fields.deadline.errors}
                errorId={fields.deadline.errorId}
              />
            </div>
            <SelectField
              label="Song (optional)"
              selectProps={getSelectProps(fields.songId)}
              options={[
                {
                  value: "",
                  label: data.songs.length ? "No song" : "You have no songs yet",
                },
                ...data.songs.map((s) => ({
                  value: String(s.id),
                  label: s.label,
                })),
              ]}
              errors={fields.songId.errors}
              errorId={fields.songId.errorId}
              help="One of your songs the work is for; the provider may then offer points on it."
            />
            <div className="flex justify-end sm:[&>*]:w-auto">
              <SubmitButton pendingLabel="Sending…">Send work request</SubmitButton>
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}
