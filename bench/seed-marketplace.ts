/**
 * Seeds the marketplace benchmark before the bench server starts (run by bench/http.js with the server's
 * settings): boots the database the way the server will (migrations, demo data), then inserts
 * BENCH_WORK_REQUESTS work requests (10,000 by default) from the demo member (member@example.com) to the demo
 * producer's profile `paul-beats`, so both sides' lists and the admin's page through all of them. Statuses cycle
 * through pending, awaiting_approval (with a live estimate), declined (with its declined estimate) and canceled;
 * services cycle too. Set-based SQL (generate_series), deterministic, skipped when this database has them.
 */
import { sql } from "drizzle-orm";
import { boot, shutdown } from "../app/boot.server";
import { db } from "../app/db/client.server";

const COUNT = Number(process.env.BENCH_WORK_REQUESTS ?? 10_000);
const MARK = "Bench work request";

await boot();
try {
  const seeded = (await db().execute(sql`select count(*)::int as n from work_requests where description like ${`${MARK} %`}`)) as unknown as {
    rows: [{ n: number }];
  };
  const already = seeded.rows[0].n;
  if (already === 0 && COUNT > 0) {
    const started = Date.now();
    await db().transaction(async (tx) => {
      const found = (await tx.execute(sql`
        select u.id as client_id, p.id as profile_id, p.owner_id as owner_id
        from users u, profiles p
        where u.email = 'member@example.com' and p.type = 'music_producer' and lower(p.username) = 'paul-beats'`)) as unknown as {
        rows: Array<{ client_id: number; profile_id: number; owner_id: number }>;
      };
      const ids = found.rows[0];
      if (!ids) throw new Error("the demo member or the paul-beats profile is missing: is the demo data seeded?");
      await tx.execute(sql`
        insert into work_requests (client_id, provider_profile_id, provider_owner_id, service, description, reference_links, budget_cents, deadline, status, canceled_at, created_at, updated_at)
        select ${ids.client_id}, ${ids.profile_id}, ${ids.owner_id},
          (array['recording', 'session_work', 'production', 'mixing', 'mastering', 'mixing_and_mastering'])[(g % 6) + 1],
          ${MARK} || ' ' || g || ': mix and master a single, stems attached.',
          '[]'::jsonb,
          10000 + (g % 50) * 1000,
          date '2026-12-31' + (g % 90),
          (array['pending', 'awaiting_approval', 'declined', 'canceled'])[(g % 4) + 1],
          case when g % 4 = 3 then timestamptz '2026-01-01' + make_interval(mins => g) end,
          timestamptz '2026-01-01' + make_interval(mins => g),
          timestamptz '2026-01-01' + make_interval(mins => g)
        from generate_series(1, ${COUNT}) g`);
      // The requests waiting for an answer hold a live estimate; the declined ones their declined estimate.
      await tx.execute(sql`
        insert into estimates (work_request_id, version, line_items, total_cents, delivery_days, revisions_included, expires_at, status, created_by, created_at)
        select w.id, 1, jsonb_build_array(jsonb_build_object('description', 'Work', 'amountCents', w.budget_cents)), w.budget_cents, 14, 2,
          w.created_at + interval '30 days', case when w.status = 'declined' then 'declined' else 'awaiting_approval' end, w.provider_owner_id, w.created_at
        from work_requests w
        where w.description like ${`${MARK} %`} and w.status in ('awaiting_approval', 'declined')`);
    });
    console.error(`[bench] ${COUNT} work requests seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(JSON.stringify({ workRequests: COUNT }));
} finally {
  await shutdown();
}
process.exit(0);
