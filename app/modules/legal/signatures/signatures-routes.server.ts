import { requireAdminUser } from "~/modules/accounts/guards.server";
import type { RouteArgs } from "~/request-context";
import { documentOptions } from "../documents/documents.server";
import { listOutstanding, listSignatures, parseSignatureFilters } from "./signatures.server";

/** /admin/signatures: the signatures, or who still has to agree to the current versions (`?view=outstanding`). */
export async function adminSignaturesLoader({ request, context }: RouteArgs) {
  requireAdminUser(request, context);
  const query = parseSignatureFilters(new URL(request.url).searchParams);
  const documents = await documentOptions();
  if (query.view === "outstanding") return { query, documents, view: "outstanding" as const, ...(await listOutstanding(query)) };
  return { query, documents, view: "signed" as const, ...(await listSignatures(query)) };
}

export type AdminSignaturesData = Awaited<ReturnType<typeof adminSignaturesLoader>>;
