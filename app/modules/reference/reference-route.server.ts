import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { ReferenceKind } from "~/db/schema";
import { notFound } from "~/modules/accounts/guards.server";
import { redirectAfterSuccess, redirectWithFlash, type FlashMessage } from "~/modules/flash/flash.server";
import { parseReferenceListQuery, REFERENCE_INTENTS, REFERENCE_PAGES, referenceActionSchema } from "./reference-schemas";
import {
  createReferenceValue,
  listReferenceValues,
  ReferenceFieldError,
  ReferenceNotFoundError,
  restoreReferenceValue,
  retireReferenceValue,
  updateReferenceValue,
} from "./reference.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";

/**
 * The loader and action behind the five reference pages (admin.genres.tsx and its siblings), which guard
 * with requireAdminUser first and pass their kind. Kept apart from reference-page.tsx so the browser
 * bundle never sees server code.
 */

export async function referencePageData(request: Request, kind: ReferenceKind) {
  const query = parseReferenceListQuery(new URL(request.url).searchParams);
  const list = await listReferenceValues(kind, query);
  return { kind, query, list };
}

export type ReferencePageData = Awaited<ReturnType<typeof referencePageData>>;

/** Which form answered (create, or the edit form of value `id`) and Conform's reply for it. */
export interface ReferenceActionData {
  intent: string;
  id: number | null;
  result: SubmissionResult<string[]>;
}

/** Back to the list as the admin left it (search, status, page), marked done so open edit forms close. */
function backToList(request: Request, doneId: number): string {
  const url = new URL(request.url);
  url.searchParams.set("done", `${doneId}-${Date.now().toString(36)}`);
  return `${url.pathname}${url.search}`;
}

const quoted = (name: string) => `“${name}”`;

export async function referencePageAction(request: Request, kind: ReferenceKind) {
  const info = REFERENCE_PAGES[kind];
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const rawId = Number(formData.get("id"));
  const id = Number.isSafeInteger(rawId) && rawId > 0 ? rawId : null;
  const submission = parseForm(formData, { schema: referenceActionSchema(kind) });
  if (submission.status !== "success") {
    const known = (REFERENCE_INTENTS as readonly string[]).includes(intent);
    const result = known ? submission.reply() : submission.reply({ formErrors: ["This action is not available."] });
    return data<ReferenceActionData>({ intent, id, result }, { status: 400 });
  }

  const value = submission.value;
  try {
    switch (value.intent) {
      case "create": {
        const created = await createReferenceValue(kind, value);
        return redirectAfterSuccess(info.path, created.id, `Added ${quoted(created.name)} to the ${info.nounPlural}.`);
      }
      case "update": {
        const { value: saved, changed, previousName } = await updateReferenceValue(kind, value.id, value);
        const flash: FlashMessage = !changed
          ? { kind: "info", message: `Nothing changed: ${quoted(saved.name)} already had these details.` }
          : previousName !== saved.name
            ? { kind: "success", message: `Renamed ${quoted(previousName)} to ${quoted(saved.name)}.` }
            : { kind: "success", message: `Saved ${quoted(saved.name)}.` };
        return redirectWithFlash(backToList(request, saved.id), flash);
      }
      case "retire": {
        const { value: retired, changed, profileCount } = await retireReferenceValue(kind, value.id);
        const keep =
          profileCount === 0 ? "" : ` The ${profileCount === 1 ? "profile that carries it keeps" : `${profileCount} profiles that carry it keep`} it.`;
        return redirectWithFlash(
          backToList(request, retired.id),
          changed
            ? { kind: "success", message: `Retired ${quoted(retired.name)}: profile forms no longer offer it.${keep}` }
            : { kind: "info", message: `${quoted(retired.name)} was already retired.` },
        );
      }
      case "restore": {
        const { value: restored, changed } = await restoreReferenceValue(kind, value.id);
        return redirectWithFlash(
          backToList(request, restored.id),
          changed
            ? { kind: "success", message: `Restored ${quoted(restored.name)}: profile forms offer it again.` }
            : { kind: "info", message: `${quoted(restored.name)} was not retired.` },
        );
      }
    }
  } catch (error) {
    // A value of another kind, or one that does not exist: the same 404 as an unknown page.
    if (error instanceof ReferenceNotFoundError) throw notFound();
    if (error instanceof ReferenceFieldError) {
      return data<ReferenceActionData>({ intent, id, result: submission.reply({ fieldErrors: { [error.field]: [error.message] } }) }, { status: 400 });
    }
    throw error;
  }
}
