import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { Field, FormAlert, SubmitButton, TextareaField, useFormResetKey } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { fullName } from "~/modules/accounts/current-user.server";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { redirectAfterSuccess } from "~/modules/flash/flash.server";
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX, ContactSchema } from "~/modules/members/contact-schema";
import { ContactRateLimitedError, sendContactMessage } from "~/modules/members/contact.server";
import type { Route } from "./+types/member.$memberId.contact-us";
import { parseForm, readForm } from "~/modules/security/form-body.server";

export const handle = { routeName: "member-contact-us" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Contact Us");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireMemberAreaAccess(request, context, params.memberId);
  // The message is always from the person signed in (an administrator in someone's area writes as themselves).
  return { sender: { fullname: fullName(user), email: user.email } };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireMemberAreaAccess(request, context, params.memberId);
  const submission = parseForm(await readForm(request), { schema: ContactSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  let sent: Awaited<ReturnType<typeof sendContactMessage>>;
  try {
    sent = await sendContactMessage({ userId: user.id, ...submission.value });
  } catch (error) {
    if (error instanceof ContactRateLimitedError) {
      return data(submission.reply({ formErrors: [error.message] }), { status: 429 });
    }
    throw error;
  }
  return redirectAfterSuccess(new URL(request.url).pathname, sent.id, `Thank you, your message was sent. We will answer at ${user.email}.`);
}

export default function ContactUsRoute({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "contact-us",
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const formResetKey = useFormResetKey();
  return (
    <div className="mx-auto w-full max-w-2xl">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Contact Us</h1>
        <p className="mt-1 text-sm text-stone-600">
          Questions, problems or ideas: write to the team. We answer by email at{" "}
          <span className="font-medium break-all text-stone-800">{loaderData.sender.email}</span>.
        </p>
      </header>
      <section aria-label="Your message" className="mt-6 rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
        <Form key={formResetKey} method="post" className="space-y-4" {...getFormProps(form)}>
          <FormAlert id={form.errorId} errors={form.errors} />
          <Field
            label="Subject"
            inputProps={{ ...getInputProps(fields.subject, { type: "text" }), maxLength: CONTACT_SUBJECT_MAX }}
            errors={fields.subject.errors}
            errorId={fields.subject.errorId}
          />
          <TextareaField
            label="Message"
            textareaProps={{ ...getTextareaProps(fields.message), rows: 8, maxLength: CONTACT_MESSAGE_MAX }}
            errors={fields.message.errors}
            errorId={fields.message.errorId}
            help={`Up to ${CONTACT_MESSAGE_MAX.toLocaleString("en-US")} characters.`}
          />
          <div className="flex justify-end sm:[&>*]:w-auto">
            <SubmitButton pendingLabel="Sending…">Send message</SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
