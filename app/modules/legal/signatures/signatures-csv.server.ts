import { requireAdminUser } from "~/modules/accounts/guards.server";
import { csvResponse, salesCsvFileName } from "~/modules/ledger/reports/sales-csv.server";
import type { RouteArgs } from "~/request-context";
import { iterateSignatures, parseSignatureFilters, type SignatureFilters, type SignatureRow } from "./signatures.server";

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

export function adminSignaturesCsvLoader({ request, context }: RouteArgs) {
  requireAdminUser(request, context);
  return signaturesCsv(parseSignatureFilters(new URL(request.url).searchParams));
}
