/**
 * Seeds the ledger benchmark before the bench server starts (run by bench/http.js with the server's
 * settings, in the same DATA_DIR or DATABASE_URL): BENCH_LEDGER_LINES posted statement lines (1,000,000 by
 * default; 0 skips) for the demo member's artist page `midnight-owls`: 90% digital, 5% PRO, 5% licence, over
 * the 24 months 2024-12 .. 2026-11, many stores and countries.
 *
 * How, honestly: the real import engine (createSalesImport + runSalesImport) posts one statement per month
 * (digital) or per quarter (PRO, licence), each a *template* of up to 500 generated lines over the demo songs
 * plus a 12-track bench album, so every posting is the engine's (receipts, commission, Mia's and Paul's
 * shares per the demo splits, Nina's held share on Late Trains, album lines over their tracks, suspense).
 * The engine runs at a few thousand lines/s today, so 1,000,000 lines through it would take minutes on
 * PostgreSQL. Each import's lines are then copied in SQL (INSERT ... SELECT over
 * generate_series) until the import holds its share of BENCH_LEDGER_LINES: a copy keeps the template line's
 * amount, song, release, period and match and gets another store and country, and its postings are the
 * template line's postings verbatim (allocation depends on the amount, the match and the period only; the
 * demo splits have no recoup), in the same journal entry. So every entry still sums to zero and shares out
 * exactly its statement's total; the import's figures (lines, matched, total, suspense) are scaled to match,
 * and the check at the end proves both on the whole ledger. Deterministic; skipped when already seeded.
 *
 * Prints one JSON line for bench/http.js: { memberId, artistId, lines }.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, like, sql } from "drizzle-orm";
import { boot, shutdown } from "../app/boot.server";
import { db } from "../app/db/client.server";
import { profiles, salesImports, users } from "../app/db/schema";
import { DEMO_ARTIST_USERNAME } from "../app/modules/catalog/catalog-seed.server";
import { addToSummaries } from "../app/modules/ledger/summaries.server";
import { createSalesImport, runSalesImport } from "../app/modules/ledger/imports/sales-imports.server";
import type { StatementKind } from "../app/modules/ledger/imports/parse-statement";

const TOTAL = Number(process.env.BENCH_LEDGER_LINES ?? 1_000_000);
/** Lines the engine posts per statement; the rest of each statement is copied from them. */
const TEMPLATE_LINES = Number(process.env.BENCH_LEDGER_TEMPLATE_LINES ?? 500);
const FILE_PREFIX = "bench-ledger-";
const BENCH_TRACKS = 12;

const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";
const PRO_HEADER =
  "statement_id,distribution_date,party_name,ipi_cae,role_type,work_title,iswc,performance_source,territory,performance_start_date,performance_end_date,number_of_plays,participant_share_pct,amount,currency,exchange_rate,adjustment_indicator";
const LICENSE_HEADER = "statement_id,license_id,licensee,usage,territory,term_start,term_end,song_title,isrc,amount,currency,exchange_rate";

const STORES = [
  "Spotify",
  "Apple Music",
  "Amazon Music",
  "YouTube Music",
  "Deezer",
  "Tidal",
  "TikTok",
  "Pandora",
  "SoundCloud",
  "Audiomack",
  "iTunes",
  "Anghami",
  "Boomplay",
  "JioSaavn",
  "NetEase",
  "Tencent",
  "Napster",
  "Qobuz",
  "Beatport",
  "Instagram",
];
const COUNTRIES = [
  "US",
  "GB",
  "DE",
  "FR",
  "BR",
  "JP",
  "MX",
  "CA",
  "AU",
  "ES",
  "IT",
  "NL",
  "SE",
  "NO",
  "PL",
  "AR",
  "CO",
  "IN",
  "KR",
  "ZA",
  "NG",
  "KE",
  "PT",
  "IE",
  "NZ",
  "CH",
  "AT",
  "BE",
  "DK",
  "FI",
];
const SOCIETIES = ["Radio", "Television", "Streaming", "Live", "Background"];
const LICENSEES = ["Netflix", "HBO", "Ubisoft", "Nike", "BBC", "Spotify Studios"];

/** 2024-12 .. 2026-11. */
const MONTHS = Array.from({ length: 24 }, (_, i) => {
  const m = 11 + i; // 2024-12 is month index 11 of 2024
  return `${2024 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`;
});
const lastDay = (month: string) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
};

/** mulberry32: the same statements on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20261125);

interface Catalogue {
  songs: Array<{ isrc: string; title: string; iswc: string | null }>;
  upcs: Array<{ upc: string; title: string }>;
}

/** The 12-track bench album on the demo page (no split: the page's owner, Mia, takes the net). */
async function addBenchAlbum(artistId: number): Promise<Catalogue> {
  await db().execute(sql`
    insert into releases (artist_id, title, slug, type, upc, label, release_date, status)
    values (${artistId}, 'Ledger Nights', 'bench-ledger-nights', 'album', '196589009999', 'Backline Bench', date '2024-11-01', 'in_distribution')
    on conflict do nothing`);
  await db().execute(sql`
    insert into songs (artist_id, title, isrc, duration_seconds, audio_format, audio_bit_depth, audio_sample_rate, audio_channels)
    select ${artistId}, 'Ledger Night ' || t, 'USBL1249' || lpad(t::text, 4, '0'), 180 + t * 7, 'wav', 24, 48000, 2
    from generate_series(1, ${BENCH_TRACKS}) t
    where not exists (select 1 from songs s where s.isrc = 'USBL1249' || lpad(t::text, 4, '0'))`);
  await db().execute(sql`
    insert into release_tracks (release_id, song_id, position)
    select r.id, s.id, t
    from generate_series(1, ${BENCH_TRACKS}) t
    join releases r on r.slug = 'bench-ledger-nights'
    join songs s on s.isrc = 'USBL1249' || lpad(t::text, 4, '0')
    on conflict do nothing`);
  const songs = (await db().execute(sql`
    select isrc, title, iswc from songs where artist_id = ${artistId} and isrc is not null order by id`)) as unknown as { rows: Catalogue["songs"] };
  const upcs = (await db().execute(sql`
    select r.upc, r.title from releases r
    where r.artist_id = ${artistId} and r.upc is not null and exists (select 1 from release_tracks t where t.release_id = r.id)
    order by r.id`)) as unknown as { rows: Catalogue["upcs"] };
  return { songs: songs.rows, upcs: upcs.rows };
}

const amount = (max: number, decimals = 8) => (rand() * max + 0.000001).toFixed(decimals);

/** One month's digital statement: ~85% tracks by ISRC, ~8% album downloads by UPC, ~5% unknown, some refunds. */
function digitalStatement(month: string, lines: number, cat: Catalogue): string {
  const out = [DIGITAL_HEADER];
  for (let i = 0; i < lines; i++) {
    const bucket = i % 100;
    const store = STORES[(i * 7 + month.length) % STORES.length]!;
    const country = COUNTRIES[Math.floor(rand() * COUNTRIES.length)]!;
    let value = amount(0.9);
    if (i % 97 === 5) value = `-${value}`;
    const quantity = 1 + Math.floor(rand() * 400);
    if (bucket < 87) {
      const song = cat.songs[Math.floor(rand() * cat.songs.length)]!;
      out.push(
        `BL-D-${month},${month}-28,${month},${month},${store},,stream,track,${country},Midnight Owls,,,${song.title},${song.isrc},${quantity},0.004,USD,${value},${value},USD,`,
      );
    } else if (bucket < 95) {
      const release = cat.upcs[i % cat.upcs.length]!;
      const price = amount(9, 2);
      out.push(
        `BL-D-${month},${month}-28,${month},${month},${store},,download,album,${country},Midnight Owls,${release.title},${release.upc},,,1,${price},USD,${price},${price},USD,`,
      );
    } else {
      out.push(
        `BL-D-${month},${month}-28,${month},${month},${store},,stream,track,${country},Somebody Else,,,Not Ours ${i % 211},GBXXX24${String(i % 99_991).padStart(5, "0")},${quantity},0.004,USD,${value},${value},USD,`,
      );
    }
  }
  return out.join("\n") + "\n";
}

/** One quarter's PRO statement: Mia and Paul by IPI with the works' ISWCs, and someone else's works. */
function proStatement(quarter: string[], lines: number, cat: Catalogue): string {
  const works = cat.songs.filter((s) => s.iswc);
  const out = [PRO_HEADER];
  const start = `${quarter[0]}-01`;
  const end = lastDay(quarter[quarter.length - 1]!);
  for (let i = 0; i < lines; i++) {
    const work = works[i % works.length]!;
    const who = i % 10;
    const [party, ipi] = who < 6 ? ["Mia Member", "523419871"] : who < 9 ? ["Paul Producer", "00611887234"] : ["Someone Else", "00999999999"];
    const country = COUNTRIES[Math.floor(rand() * COUNTRIES.length)]!;
    out.push(
      `BL-P-${quarter[0]},${end},${party},${ipi},Writer,${work.title},${work.iswc},${SOCIETIES[i % SOCIETIES.length]},${country},${start},${end},${1 + (i % 500)},50,${amount(20)},USD,,`,
    );
  }
  return out.join("\n") + "\n";
}

function licenseStatement(quarter: string[], lines: number, cat: Catalogue): string {
  const out = [LICENSE_HEADER];
  for (let i = 0; i < lines; i++) {
    const song = cat.songs[i % cat.songs.length]!;
    const month = quarter[i % quarter.length]!;
    const country = COUNTRIES[Math.floor(rand() * COUNTRIES.length)]!;
    out.push(
      `BL-L-${quarter[0]},LIC-${quarter[0]}-${i},${LICENSEES[i % LICENSEES.length]},sync,${country},${month}-01,${lastDay(month)},${song.title},${song.isrc},${amount(400, 2)},USD,`,
    );
  }
  return out.join("\n") + "\n";
}

async function importText(kind: StatementKind, name: string, text: string, uploadedBy: number): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-ledger-"));
  const tmpPath = path.join(dir, "upload");
  fs.writeFileSync(tmpPath, text);
  const created = await createSalesImport({
    kind,
    file: { tmpPath, filename: `${FILE_PREFIX}${name}.csv`, bytes: Buffer.byteLength(text), sha256: createHash("sha256").update(text).digest("hex") },
    exchangeRate: null,
    uploadedBy,
  });
  const done = await runSalesImport(created.id);
  fs.rmSync(dir, { recursive: true, force: true });
  if (done?.status !== "completed") throw new Error(`${name}: the import ended ${done?.status}: ${done?.error}`);
  return created.id;
}

/**
 * Grows an import to `target` lines by copying its template lines (see the header) with their postings,
 * in the import's own journal entry, and scales its figures. Set-based: one INSERT ... SELECT per table.
 */
async function multiply(importId: number, target: number, kind: StatementKind) {
  await db().transaction(async (tx) => {
    const run = (query: ReturnType<typeof sql>) => tx.execute(query);
    const [{ n: template }] = (
      (await run(sql`select count(*)::int as n from statement_lines where import_id = ${importId}`)) as unknown as { rows: [{ n: number }] }
    ).rows;
    const copies = Math.ceil(target / template) - 1; // besides the template itself
    if (copies <= 0) return;
    const extra = Math.min(copies * template, target - template);
    await run(sql`drop table if exists bench_template`);
    await run(sql`create temp table bench_template as
      select sl.*, (row_number() over (order by sl.id) - 1)::int as idx from statement_lines sl where sl.import_id = ${importId}`);
    const [{ max_line: maxLine }] = ((await run(sql`select max(line_no)::int as max_line from bench_template`)) as unknown as { rows: [{ max_line: number }] })
      .rows;
    // Ids for the copies, reserved as the engine reserves its batches.
    const [{ last }] = (
      (await run(
        sql`select setval(pg_get_serial_sequence('statement_lines', 'id'), nextval(pg_get_serial_sequence('statement_lines', 'id')) + ${extra - 1})::text as last`,
      )) as unknown as { rows: [{ last: string }] }
    ).rows;
    const first = BigInt(last) - BigInt(extra) + 1n;
    const stores = `array[${STORES.map((s) => `'${s}'`).join(",")}]`;
    const countries = `array[${COUNTRIES.map((c) => `'${c}'`).join(",")}]`;
    // Copy c (1..copies) of template line idx is copy number k = (c - 1) * template + idx; only k < extra.
    const store = kind === "digital" ? sql.raw(`(${stores})[1 + ((t.idx * 7 + c * 3) % ${STORES.length})]`) : sql.raw("t.source");
    const country = sql.raw(`(${countries})[1 + ((t.idx * 11 + c * 13) % ${COUNTRIES.length})]`);
    await run(sql`
      insert into statement_lines (id, import_id, line_no, kind, statement_id, sale_period_start, sale_period_end, source, territory, artist,
        release_title, track_title, isrc, upc, iswc, ipi, quantity, original_amount_micros, original_currency, exchange_rate, amount_micros,
        song_id, release_id, member_id, matched_by)
      overriding system value
      select ${first.toString()}::bigint + (c - 1) * ${template} + t.idx, t.import_id, ${maxLine} + (c - 1) * ${template} + t.idx + 1, t.kind, t.statement_id,
        t.sale_period_start, t.sale_period_end, ${store}, ${country}, t.artist, t.release_title, t.track_title, t.isrc, t.upc, t.iswc, t.ipi,
        t.quantity, t.original_amount_micros, t.original_currency, t.exchange_rate, t.amount_micros, t.song_id, t.release_id, t.member_id, t.matched_by
      from generate_series(1, ${copies}) c cross join bench_template t
      where (c - 1) * ${template} + t.idx < ${extra}`);
    await run(sql`
      insert into postings (entry_id, account_id, amount_micros, currency, statement_line_id, source, split_version_id, song_id, recoup_micros)
      select p.entry_id, p.account_id, p.amount_micros, p.currency, ${first.toString()}::bigint + (c - 1) * ${template} + t.idx, p.source, p.split_version_id, p.song_id, p.recoup_micros
      from generate_series(1, ${copies}) c cross join bench_template t
      join postings p on p.statement_line_id = t.id
      where (c - 1) * ${template} + t.idx < ${extra}`);
    // The pages' summaries of the copied postings, in the same transaction (as the engine keeps them).
    await addToSummaries(
      tx,
      sql`p.statement_line_id >= ${first.toString()}::bigint and p.statement_line_id < ${(first + BigInt(extra)).toString()}::bigint`,
      1,
      true,
    );
    // The import's figures, from its lines (the file on disk stays the template).
    await run(sql`
      update sales_imports si set lines = x.lines, matched = x.matched, unmatched = x.lines - x.matched, total_micros = x.total, suspense_micros = x.suspense
      from (select count(*)::int as lines, count(*) filter (where matched_by is not null)::int as matched, sum(amount_micros) as total,
              coalesce(sum(amount_micros) filter (where matched_by is null), 0) as suspense
            from statement_lines where import_id = ${importId}) x
      where si.id = ${importId}`);
    await run(sql`drop table bench_template`);
  });
}

/** Splits `n` into `parts` near-equal whole parts. */
const spread = (n: number, parts: number) => Array.from({ length: parts }, (_, i) => Math.floor((n * (i + 1)) / parts) - Math.floor((n * i) / parts));

await boot();
try {
  const [member] = await db().select({ id: users.id }).from(users).where(eq(users.email, "member@example.com"));
  const [admin] = await db().select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
  const [artist] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(sql`${profiles.type} = 'artist' and lower(${profiles.username}) = ${DEMO_ARTIST_USERNAME}`);
  if (!member || !admin || !artist) throw new Error("the demo member, admin or artist page is missing: is the demo data seeded?");

  const [{ seeded }] = (await db()
    .select({ seeded: sql<number>`coalesce(sum(${salesImports.lines}), 0)::int` })
    .from(salesImports)
    .where(like(salesImports.fileName, `${FILE_PREFIX}%`))) as [{ seeded: number }];
  if (seeded > 0 && seeded !== TOTAL) console.error(`[bench] this database already has ${seeded} bench ledger lines (not ${TOTAL}); measuring those`);
  if (seeded === 0 && TOTAL > 0) {
    const started = Date.now();
    const cat = await addBenchAlbum(artist.id);
    const quarters = Array.from({ length: 8 }, (_, q) => MONTHS.slice(q * 3, q * 3 + 3));
    const digital = spread(Math.round(TOTAL * 0.9), MONTHS.length);
    const pro = spread(Math.round(TOTAL * 0.05), quarters.length);
    const license = spread(TOTAL - Math.round(TOTAL * 0.9) - Math.round(TOTAL * 0.05), quarters.length);
    const statements: Array<{ kind: StatementKind; name: string; lines: number; text: (n: number) => string }> = [
      ...MONTHS.map((month, i) => ({
        kind: "digital" as const,
        name: `digital-${month}`,
        lines: digital[i]!,
        text: (n: number) => digitalStatement(month, n, cat),
      })),
      ...quarters.map((q, i) => ({ kind: "pro" as const, name: `pro-${q[0]}`, lines: pro[i]!, text: (n: number) => proStatement(q, n, cat) })),
      ...quarters.map((q, i) => ({ kind: "license" as const, name: `license-${q[0]}`, lines: license[i]!, text: (n: number) => licenseStatement(q, n, cat) })),
    ].filter((s) => s.lines > 0);
    let engineLines = 0;
    let engineMs = 0;
    let copyMs = 0;
    for (const statement of statements) {
      const t0 = Date.now();
      const templateLines = Math.min(TEMPLATE_LINES, statement.lines);
      const importId = await importText(statement.kind, statement.name, statement.text(templateLines), admin.id);
      engineLines += templateLines;
      const t1 = Date.now();
      await multiply(importId, statement.lines, statement.kind);
      engineMs += t1 - t0;
      copyMs += Date.now() - t1;
    }
    // The invariant over the whole ledger: every entry sums to zero, and every import's lines' total is
    // what its entry shares out (everything but its receipts postings).
    const check = (await db().execute(sql`
      select
        (select count(*)::int from (select entry_id from postings group by entry_id having sum(amount_micros) <> 0) x) as unbalanced,
        (select count(*)::int from sales_imports si where si.file_name like ${`${FILE_PREFIX}%`} and si.total_micros <> (
          select coalesce(sum(p.amount_micros), 0) from journal_entries je join postings p on p.entry_id = je.id
          join ledger_accounts a on a.id = p.account_id and a.kind <> 'receipts' where je.import_id = si.id)) as mismatched,
        (select count(*)::int from statement_lines) as lines,
        (select count(*)::int from postings) as postings`)) as unknown as {
      rows: [{ unbalanced: number; mismatched: number; lines: number; postings: number }];
    };
    const figures = check.rows[0];
    if (figures.unbalanced || figures.mismatched) throw new Error(`the seeded ledger does not balance: ${JSON.stringify(figures)}`);
    // Fresh statistics, as autovacuum would gather on a live database, so the planner sees the real sizes.
    await db().execute(sql`analyze`);
    console.error(
      `[bench] ledger: ${figures.lines.toLocaleString("en-US")} statement lines and ${figures.postings.toLocaleString("en-US")} postings in ` +
        `${statements.length} imports in ${((Date.now() - started) / 1000).toFixed(1)} s (engine: ${engineLines.toLocaleString("en-US")} template lines in ` +
        `${(engineMs / 1000).toFixed(1)} s; copies: ${(copyMs / 1000).toFixed(1)} s); balanced`,
    );
  }
  console.log(JSON.stringify({ memberId: member.id, artistId: artist.id, lines: TOTAL }));
} finally {
  await shutdown();
}
process.exit(0);
