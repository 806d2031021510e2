import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form, useActionData } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { DateTime } from "~/components/formatting";
import { CheckboxField, Field, FormAlert, SubmitButton } from "~/components/forms";
import type { ProfileRights } from "~/modules/profiles/profile-access.server";
import type { BandData } from "~/modules/profiles/band.server";
import { BandInviteSchema } from "./band-invite-schemas";

type Member = BandData["members"][number];
type Invite = BandData["invites"][number];

const smallButton =
  "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-xs font-medium text-stone-800 shadow-sm hover:bg-stone-50 focus-visible:ring-2 focus-visible:ring-brand-700 focus-visible:outline-none";
const dangerButton =
  "rounded-md bg-red-700 px-2.5 py-1.5 text-xs font-semibold text-white shadow-sm hover:bg-red-800 focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:ring-offset-1 focus-visible:outline-none";
const summaryButton = `${smallButton} inline-block cursor-pointer list-none [&::-webkit-details-marker]:hidden`;

/**
 * The band of an artist page, on its owner page: members with their role, rights and join date, the
 * pending invitations, and the forms to invite, revoke, remove, grant or withdraw editing rights, and
 * leave. Every form posts to the page itself (whose action calls handleBandIntent); without JavaScript
 * a removal is confirmed by opening a <details> first.
 */
export function BandSection({ band, rights, currentUserId }: { band: BandData; rights: ProfileRights; currentUserId: number }) {
  const actionData = useActionData<{ form?: string; result?: SubmissionResult<string[]> }>();
  const result = actionData?.form === "band" ? actionData.result : undefined;
  const intent = result?.initialValue?.intent;
  const canManage = rights === "owner" || rights === "admin";
  const me = band.members.find((m) => m.userId === currentUserId);
  // Errors of the row forms (a refused removal, a vanished invitation...) are shown above the lists.
  const rowErrors = intent && intent !== "band-invite" ? (result?.error?.[""] ?? null) : null;

  const memberColumns: Array<DataColumn<Member>> = [
    {
      key: "name",
      header: "Member",
      rowHeader: true,
      cell: (m) => (
        <span>
          <span className="font-medium text-stone-900">
            {m.name} {m.lastName}
            {m.userId === currentUserId ? <span className="font-normal text-stone-500"> (you)</span> : null}
          </span>
          <span className="block text-xs break-words text-stone-500">{m.email}</span>
        </span>
      ),
    },
    { key: "role", header: "Role", cell: (m) => (m.role === "owner" ? "Owner" : "Member") },
    {
      key: "rights",
      header: "Rights",
      cell: (m) => (m.role === "owner" || m.canEdit ? "May edit the page" : "Cannot edit the page"),
    },
    { key: "joined", header: "Joined", cell: (m) => <DateTime iso={m.joinedAt} /> },
    {
      key: "actions",
      header: "Actions",
      headerHidden: true,
      align: "right",
      cell: (m) => <MemberActions member={m} canManage={canManage} isMe={m.userId === currentUserId} />,
    },
  ];

  const inviteColumns: Array<DataColumn<Invite>> = [
    { key: "email", header: "Email", rowHeader: true, cell: (i) => <span className="break-words">{i.email}</span> },
    { key: "rights", header: "Rights", cell: (i) => (i.canEdit ? "May edit the page" : "Cannot edit the page") },
    { key: "sent", header: "Sent", cell: (i) => <DateTime iso={i.createdAt} /> },
    { key: "expires", header: "Expires", cell: (i) => <DateTime iso={i.expiresAt} /> },
    {
      key: "actions",
      header: "Actions",
      headerHidden: true,
      align: "right",
      cell: (i) =>
        canManage ? (
          <Form method="post" className="inline">
            <input type="hidden" name="inviteId" value={i.id} />
            <button type="submit" name="intent" value="band-revoke" className={smallButton}>
              Revoke<span className="sr-only"> the invitation to {i.email}</span>
            </button>
          </Form>
        ) : null,
    },
  ];

  return (
    <section aria-labelledby="band-heading" className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="band-heading" className="text-base font-semibold">
        Band members
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        Members see this artist in their menu under Your Artists. Those allowed to edit may change the page and invite others; only the owner or an
        administrator removes members and changes rights.
      </p>
      {rowErrors ? (
        <div className="mt-4">
          <FormAlert errors={rowErrors} />
        </div>
      ) : null}

      <div className="mt-4">
        <DataTable caption="Band members" columns={memberColumns} rows={band.members} rowKey={(m) => m.userId} />
      </div>

      <h3 className="mt-8 text-sm font-semibold text-stone-900">Pending invitations</h3>
      <div className="mt-2">
        <DataTable
          caption="Pending invitations"
          columns={inviteColumns}
          rows={band.invites}
          rowKey={(i) => i.id}
          empty={<p className="text-sm text-stone-600">No invitations are waiting for an answer.</p>}
        />
      </div>

      {/* A new key after each successful invitation (the list grows) empties the form; an error keeps its values. */}
      <InviteForm key={band.invites.map((i) => i.id).join(",")} lastResult={intent === "band-invite" ? result : undefined} />

      {me && me.role === "member" ? <LeaveBand /> : null}
    </section>
  );
}

function InviteForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "band-invite",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BandInviteSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" className="mt-8 space-y-4 border-t border-stone-200 pt-6" {...getFormProps(form)}>
      <h3 className="text-sm font-semibold text-stone-900">Invite a member</h3>
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field
        label="Email address"
        help="We email them a link to join. Without an account, they can create one from the link."
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
        errors={fields.email.errors}
        errorId={fields.email.errorId}
      />
      <CheckboxField
        label="May edit the page"
        inputProps={getInputProps(fields.canEdit, { type: "checkbox", value: "on" })}
        errors={fields.canEdit.errors}
        errorId={fields.canEdit.errorId}
      />
      <div className="sm:flex sm:justify-end">
        <SubmitButton name="intent" value="band-invite" pendingLabel="Sending…" className={primaryButton}>
          Send invitation
        </SubmitButton>
      </div>
    </Form>
  );
}

const primaryButton =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto";

function MemberActions({ member, canManage, isMe }: { member: Member; canManage: boolean; isMe: boolean }) {
  if (member.role === "owner" || !canManage || isMe) return null;
  const name = `${member.name} ${member.lastName}`;
  return (
    <div className="flex flex-wrap items-start justify-end gap-2">
      <Form method="post">
        <input type="hidden" name="userId" value={member.userId} />
        <input type="hidden" name="canEdit" value={member.canEdit ? "false" : "true"} />
        <button type="submit" name="intent" value="band-rights" className={smallButton}>
          {member.canEdit ? "Withdraw editing rights" : "Allow editing"}
          <span className="sr-only"> for {name}</span>
        </button>
      </Form>
      <Confirm
        summary={
          <>
            Remove<span className="sr-only"> {name}</span>
          </>
        }
        text={`Remove ${name} from the band? They will no longer see this artist in their menu.`}
      >
        <Form method="post">
          <input type="hidden" name="userId" value={member.userId} />
          <button type="submit" name="intent" value="band-remove" className={dangerButton}>
            Yes, remove {name}
          </button>
        </Form>
      </Confirm>
    </div>
  );
}

/** Also on the artist's public page, for band members without editing rights. */
export function LeaveBand() {
  return (
    <div className="mt-8 border-t border-stone-200 pt-6">
      <h3 className="text-sm font-semibold text-stone-900">Leave the band</h3>
      <p className="mt-1 text-sm text-stone-600">You will no longer see this artist in your menu. To come back, you need a new invitation.</p>
      <div className="mt-3">
        <Confirm summary="Leave the band" text="Leave this band now?">
          <Form method="post">
            <button type="submit" name="intent" value="band-leave" className={dangerButton}>
              Yes, leave the band
            </button>
          </Form>
        </Confirm>
      </div>
    </div>
  );
}

/** A confirmation that needs no JavaScript: the real button appears once the summary is opened. */
function Confirm({ summary, text, children }: { summary: ReactNode; text: string; children: ReactNode }) {
  return (
    <details className="text-left">
      <summary className={summaryButton}>{summary}</summary>
      <div className="mt-2 w-60 max-w-full rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
        <p>{text}</p>
        <div className="mt-2">{children}</div>
      </div>
    </details>
  );
}
