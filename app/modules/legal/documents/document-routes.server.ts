import { data } from "react-router";
import { pageParam } from "~/components/pagination";
import { idOr404, requireAdminUser } from "~/modules/accounts/guards.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound } from "~/modules/http/route-errors.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import type { RouteArgs } from "~/request-context";
import { DocumentFormSchema } from "./document-schemas";
import {
  createDocument,
  discardDocumentDraft,
  DocumentValidationError,
  getDocumentForEdit,
  listDocuments,
  publishDocumentDraft,
  saveDocumentDraft,
  withdrawDocument,
} from "./documents.server";

/**
 * Loaders and actions of /admin/documents, /admin/document/create and /admin/document/edit/{id}: guard,
 * parse, service, redirect (or the form's errors with status 400). The route modules only wire them.
 * Publishing needs no second factor (decision 024): it moves no money, every version is kept, and a mistake
 * is undone by publishing a corrected version.
 */

export const editPath = (id: number) => `/admin/document/edit/${id}`;

export async function adminDocumentsLoader({ request, context }: RouteArgs) {
  requireAdminUser(request, context);
  return listDocuments({ page: pageParam(new URL(request.url).searchParams.get("page")) });
}

export async function adminDocumentCreateLoader({ request, context }: RouteArgs) {
  requireAdminUser(request, context);
  return null;
}

export async function adminDocumentCreateAction({ request, context }: RouteArgs) {
  const { user } = requireAdminUser(request, context);
  const submission = parseForm(await readForm(request), { schema: DocumentFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const { id } = await createDocument({ ...submission.value, adminId: user.id });
    return redirectWithFlash(editPath(id), {
      kind: "success",
      message: `${submission.value.name} was saved as a draft. Check the preview below, then publish it.`,
    });
  } catch (error) {
    if (error instanceof DocumentValidationError) return data(submission.reply({ fieldErrors: error.fieldErrors }), { status: 400 });
    throw error;
  }
}

export async function adminDocumentEditLoader({ request, context, params }: RouteArgs) {
  requireAdminUser(request, context);
  const document = await getDocumentForEdit(idOr404(params.id));
  if (!document) throw notFound();
  return { document };
}

export async function adminDocumentEditAction({ request, context, params }: RouteArgs) {
  const { user } = requireAdminUser(request, context);
  const id = idOr404(params.id);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "discard") {
    await discardDocumentDraft(id);
    return redirectWithFlash(editPath(id), { kind: "success", message: "The draft was discarded. The published text is unchanged." });
  }
  if (intent === "withdraw") {
    const done = await withdrawDocument(id);
    if (!done) throw notFound();
    return redirectWithFlash(editPath(id), {
      kind: "success",
      message: "The document was withdrawn: it is no longer on Legal Terms and nobody is asked to agree to it. Publish it again to bring it back.",
    });
  }
  const submission = parseForm(formData, { schema: DocumentFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const saved = await saveDocumentDraft(id, { ...submission.value, adminId: user.id });
    if (!saved) throw notFound();
  } catch (error) {
    if (error instanceof DocumentValidationError) return data(submission.reply({ fieldErrors: error.fieldErrors }), { status: 400 });
    throw error;
  }
  if (submission.value.intent === "save") {
    return redirectWithFlash(`${editPath(id)}#preview`, { kind: "success", message: "Draft saved. The published text is unchanged until you publish." });
  }
  const outcome = await publishDocumentDraft(id, user.id);
  if (!outcome.ok) {
    if (outcome.reason === "not_found") throw notFound();
    return data(submission.reply({ formErrors: ["Nothing changed in the text since the published version: edit it before publishing a new version."] }), {
      status: 400,
    });
  }
  const message = submission.value.required
    ? `Version ${outcome.version} of ${submission.value.name} is published. Every user is asked to agree to it on their next request.`
    : `Version ${outcome.version} of ${submission.value.name} is published.`;
  return redirectWithFlash(editPath(id), { kind: "success", message });
}
