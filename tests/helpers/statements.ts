import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createSalesImport, runSalesImport, type NewSalesImport } from "~/modules/ledger/imports/sales-imports.server";
import type { StatementKind } from "~/modules/ledger/imports/statement-line";

/** The canonical statement headers (docs/money.md "Canonical CSV columns"). */
export const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";
export const PRO_HEADER =
  "statement_id,distribution_date,party_name,ipi_cae,role_type,work_title,iswc,performance_source,territory,performance_start_date,performance_end_date,number_of_plays,participant_share_pct,amount,currency,exchange_rate,adjustment_indicator";
export const LICENSE_HEADER = "statement_id,license_id,licensee,usage,territory,term_start,term_end,song_title,isrc,amount,currency,exchange_rate";

/** A statement's lines written to a temporary file, as an upload hands them to createSalesImport. */
export async function statementUpload(kind: StatementKind, lines: string[], uploadedBy: number, exchangeRate: string | null = null): Promise<NewSalesImport> {
  const text = lines.join("\n") + "\n";
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "statement-"));
  const tmpPath = path.join(dir, "upload");
  await fs.writeFile(tmpPath, text);
  return {
    kind,
    file: { tmpPath, filename: `${kind}.csv`, bytes: Buffer.byteLength(text), sha256: createHash("sha256").update(text).digest("hex") },
    exchangeRate,
    uploadedBy,
  };
}

/** Checks, records and posts a statement at once; throws unless it completes. */
export async function importStatement(kind: StatementKind, lines: string[], uploadedBy: number, exchangeRate: string | null = null) {
  const created = await createSalesImport(await statementUpload(kind, lines, uploadedBy, exchangeRate));
  const done = await runSalesImport(created.id);
  if (done?.status !== "completed") throw new Error(`Import #${created.id} did not complete: ${done?.status} ${done?.error ?? ""}`);
  return done;
}
