import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Field, FormAlert, SelectField, SubmitButton, TextareaField, useFormResetKey } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { notificationColors } from "~/modules/notifications/colors";
import { AnnouncementSchema } from "~/modules/notifications/announcement-schema";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { redirectAfterSuccess } from "~/modules/flash/flash.server";
import { sendAnnouncement, UnknownMemberError } from "~/modules/notifications/announcements.server";
import { socketIdOf } from "~/modules/notifications/broadcaster.server";
import type { Route } from "./+types/admin.announcements";
import { parseForm, readForm } from "~/modules/security/form-body.server";

export const handle = { routeName: "admin-announcements" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Announcements");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  // "Send to one" links from a member's page carry the address.
  return { email: new URL(request.url).searchParams.get("email") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdminUser(request, context);
  const submission = parseForm(await readForm(request), { schema: AnnouncementSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const reached = await sendAnnouncement(submission.value, { socketId: socketIdOf(request) });
    return redirectAfterSuccess("/admin/announcements", Date.now(), `Announcement sent to ${reached} member${reached === 1 ? "" : "s"}.`);
  } catch (error) {
    if (error instanceof UnknownMemberError) {
      return data(submission.reply({ fieldErrors: { email: [error.message] } }), { status: 400 });
    }
    throw error;
  }
}

export default function AdminAnnouncements({ loaderData, actionData: lastResult }: Route.ComponentProps) {
  const { email } = loaderData;
  const formResetKey = useFormResetKey();
  const [form, fields] = useForm({
    id: "announcement",
    lastResult,
    defaultValue: { audience: email ? "one" : "all", email, color: "blue" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AnnouncementSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="max-w-xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Announcements</h1>
        <p className="text-sm text-stone-600">An announcement arrives at once in the members' notification bell, and stays there until they delete it.</p>
      </div>
      <Form key={formResetKey} method="post" className="space-y-4 rounded-xl border border-stone-200 bg-white p-4 shadow-sm" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <SelectField
          label="Send to"
          selectProps={getSelectProps(fields.audience)}
          options={[
            { value: "all", label: "All members" },
            { value: "one", label: "One member" },
          ]}
          errors={fields.audience.errors}
          errorId={fields.audience.errorId}
        />
        <Field
          label="Member's email (when sending to one)"
          inputProps={getInputProps(fields.email, { type: "email" })}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        />
        <TextareaField label="Message" textareaProps={getTextareaProps(fields.message)} errors={fields.message.errors} errorId={fields.message.errorId} />
        <SelectField
          label="Colour"
          selectProps={getSelectProps(fields.color)}
          options={notificationColors.map((c) => ({ value: c, label: c[0]!.toUpperCase() + c.slice(1) }))}
          errors={fields.color.errors}
          errorId={fields.color.errorId}
        />
        <SubmitButton pendingLabel="Sending…">Send announcement</SubmitButton>
      </Form>
    </div>
  );
}
