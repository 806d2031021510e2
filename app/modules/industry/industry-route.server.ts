import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { notFound, parseId } from "~/modules/accounts/guards.server";
import { redirectAfterSuccess, redirectWithFlash } from "~/modules/flash/flash.server";
import { INDUSTRY_INTENTS, ManagerActionSchema, parseIndustryListQuery, VenueActionSchema } from "./industry-schemas";
import { IndustryNotFoundError } from "./industry.server";
import { createManager, deleteManager, getManager, listManagers, updateManager, UnknownArtistsError } from "./managers.server";
import { createVenue, deleteVenue, getVenue, listVenues, updateVenue } from "./venues.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";

/**
 * Loaders and actions behind /admin/managers and /admin/venues (the routes guard with requireAdminUser
 * first). `?edit={id}` opens a record's edit form above the list; an unknown id there is a 404.
 * Kept apart from the page components so the browser bundle never sees server code.
 */

export const MANAGERS_PATH = "/admin/managers";
export const VENUES_PATH = "/admin/venues";

/** Which form answered (create, or the edit/delete form of record `id`) and Conform's reply for it. */
export interface IndustryActionData {
  intent: string;
  id: number | null;
  result: SubmissionResult<string[]>;
}

function editId(url: URL): number | null {
  const raw = url.searchParams.get("edit");
  if (raw === null || raw === "") return null;
  const id = parseId(raw);
  if (id === null) throw notFound();
  return id;
}

/** Back to the list as the admin left it (search, page) with the edit form closed and the forms emptied. */
function backToList(request: Request, doneId: number): string {
  const url = new URL(request.url);
  url.searchParams.delete("edit");
  url.searchParams.set("done", `${doneId}-${Date.now().toString(36)}`);
  return `${url.pathname}${url.search}`;
}

async function load<T>(find: () => Promise<T>): Promise<T> {
  try {
    return await find();
  } catch (error) {
    if (error instanceof IndustryNotFoundError) throw notFound();
    throw error;
  }
}

function invalid(formData: FormData, submission: { reply: (options?: { formErrors?: string[] }) => SubmissionResult<string[]> }) {
  const intent = String(formData.get("intent") ?? "");
  const known = (INDUSTRY_INTENTS as readonly string[]).includes(intent);
  const result = known ? submission.reply() : submission.reply({ formErrors: ["This action is not available."] });
  return data<IndustryActionData>({ intent, id: parseId(String(formData.get("id") ?? "")), result }, { status: 400 });
}

// ---------------------------------------------------------------- managers

export async function managersPageData(request: Request) {
  const url = new URL(request.url);
  const query = parseIndustryListQuery(url.searchParams);
  const id = editId(url);
  const [list, editing] = await Promise.all([listManagers(query), id === null ? null : load(() => getManager(id))]);
  return { query, list, editing };
}

export async function managersPageAction(request: Request) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: ManagerActionSchema });
  if (submission.status !== "success") return invalid(formData, submission);
  const value = submission.value;
  try {
    switch (value.intent) {
      case "create": {
        const manager = await createManager(value);
        return redirectAfterSuccess(MANAGERS_PATH, manager.id, `Added the manager “${manager.name}”.`);
      }
      case "update": {
        const manager = await updateManager(value.id, value);
        return redirectWithFlash(backToList(request, manager.id), { kind: "success", message: `Saved “${manager.name}”.` });
      }
      case "delete": {
        const manager = await deleteManager(value.id);
        return redirectWithFlash(backToList(request, manager.id), { kind: "success", message: `Deleted the manager “${manager.name}”.` });
      }
    }
  } catch (error) {
    if (error instanceof IndustryNotFoundError) throw notFound();
    if (error instanceof UnknownArtistsError) {
      const id = value.intent === "create" ? null : value.id;
      return data<IndustryActionData>({ intent: value.intent, id, result: submission.reply({ fieldErrors: { artists: [error.message] } }) }, { status: 400 });
    }
    throw error;
  }
}

// ---------------------------------------------------------------- venues

export async function venuesPageData(request: Request) {
  const url = new URL(request.url);
  const query = parseIndustryListQuery(url.searchParams);
  const id = editId(url);
  const [list, editing] = await Promise.all([listVenues(query), id === null ? null : load(() => getVenue(id))]);
  return { query, list, editing };
}

export async function venuesPageAction(request: Request) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: VenueActionSchema });
  if (submission.status !== "success") return invalid(formData, submission);
  const value = submission.value;
  try {
    switch (value.intent) {
      case "create": {
        const venue = await createVenue(value);
        return redirectAfterSuccess(VENUES_PATH, venue.id, `Added the venue “${venue.name}”.`);
      }
      case "update": {
        const venue = await updateVenue(value.id, value);
        return redirectWithFlash(backToList(request, venue.id), { kind: "success", message: `Saved “${venue.name}”.` });
      }
      case "delete": {
        const venue = await deleteVenue(value.id);
        return redirectWithFlash(backToList(request, venue.id), { kind: "success", message: `Deleted the venue “${venue.name}”.` });
      }
    }
  } catch (error) {
    if (error instanceof IndustryNotFoundError) throw notFound();
    throw error;
  }
}

export type ManagersPageData = Awaited<ReturnType<typeof managersPageData>>;
export type VenuesPageData = Awaited<ReturnType<typeof venuesPageData>>;
