import { requireAdminUser } from "~/modules/accounts/guards.server";
import { csvResponse, salesCsvFileName } from "~/modules/ledger/reports/sales-csv.server";
import type { RouteArgs } from "~/request-context";
import {
  iterateOutstanding,
  iterateSignatures,
  parseSignatureFilters,
  type OutstandingRow,
  type SignatureFilters,
  type SignatureRow,
} from "./signatures.server";

/**
 * /admin/signatures/export.csv: the list's rows under the same filters, streamed by the sales exports' writer
 * (csvResponse: rows written as they come, spreadsheet formulas neutralised).
 */

const HEADER = ["signature_id", "member_id", "member", "email", "document_id", "document", "version", "current_version", "signed_at", "ip", "user_agent"];

async function* cells(rows: AsyncIterable<SignatureRow>) {
  for await (const r of rows) {
    yield [
      { value: r.id, text: false },
      { value: r.userId, text: false },
      { value: r.memberName },
      { value: r.memberEmail },
      { value: r.documentId, text: false },
      { value: r.documentName },
      { value: r.version, text: false },
      { value: r.current ? "yes" : "no" },
      { value: r.signedAt },
      { value: r.ip },
      { value: r.userAgent },
    ];
  }
}

export function signaturesCsv(filters: SignatureFilters): Response {
  const name = salesCsvFileName([
    "signatures",
    filters.document !== null ? `document-${filters.document}` : null,
    filters.version !== null ? `v${filters.version}` : null,
    filters.member || null,
  ]);
  return csvResponse(name, HEADER, cells(iterateSignatures(filters)));
}

const OUTSTANDING_HEADER = ["member_id", "member", "email", "document_id", "document", "current_version", "last_agreed_version"];

async function* outstandingCells(rows: AsyncIterable<OutstandingRow>) {
  for await (const r of rows) {
    yield [
      { value: r.userId, text: false },
      { value: r.memberName },
      { value: r.memberEmail },
      { value: r.documentId, text: false },
      { value: r.documentName },
      { value: r.currentVersion, text: false },
      { value: r.lastAgreedVersion, text: false },
    ];
  }
}

/** Who still has to agree to the current versions, under the same filters (the list's "Still to agree" view). */
export function outstandingCsv(filters: Pick<SignatureFilters, "document" | "member">): Response {
  const name = salesCsvFileName(["still-to-agree", filters.document !== null ? `document-${filters.document}` : null, filters.member || null]);
  return csvResponse(name, OUTSTANDING_HEADER, outstandingCells(iterateOutstanding(filters)));
}

export function adminSignaturesCsvLoader({ request, context }: RouteArgs) {
  requireAdminUser(request, context);
  const filters = parseSignatureFilters(new URL(request.url).searchParams);
  return filters.view === "outstanding" ? outstandingCsv(filters) : signaturesCsv(filters);
}
