/**
 * Seeds the catalogue benchmark before the bench server starts (run by bench/http.js with the server's
 * settings, in the same DATA_DIR or DATABASE_URL): boots the database the way the server will (migrations,
 * reference lists, demo data), then inserts BENCH_CATALOG_RELEASES releases (10,000 by default), each with
 * one to three songs as its tracks. A tenth of them are on the demo artist page `midnight-owls`, so the demo
 * member's releases list pages through 1,000 of their own; the rest are spread over 90 artist pages of one
 * bench owner. Set-based SQL (generate_series), deterministic, skipped when this database has them already.
 */
import { eq, like, sql } from "drizzle-orm";
import { boot, shutdown } from "../app/boot.server";
import { db } from "../app/db/client.server";
import { profiles, releases, users } from "../app/db/schema";
import { DEMO_ARTIST_USERNAME } from "../app/modules/catalog/catalog-seed.server";

const COUNT = Number(process.env.BENCH_CATALOG_RELEASES ?? 10_000);
const BENCH_ARTISTS = 90;
const OWNER_EMAIL = "bench-label@example.test";

await boot();
try {
  const [{ seeded }] = (await db()
    .select({ seeded: sql<number>`count(*)::int` })
    .from(releases)
    .where(like(releases.slug, "bench-%"))) as [{ seeded: number }];
  if (seeded === 0 && COUNT > 0) {
    const started = Date.now();
    await db().transaction(async (tx) => {
      const [demoArtist] = await tx
        .select({ id: profiles.id })
        .from(profiles)
        .where(sql`${profiles.type} = 'artist' and lower(${profiles.username}) = ${DEMO_ARTIST_USERNAME}`);
      if (!demoArtist) throw new Error("the demo artist page is missing: is the demo data seeded?");
      await tx.delete(users).where(eq(users.email, OWNER_EMAIL));
      const [owner] = await tx
        .insert(users)
        .values({ name: "Bench", lastName: "Label", email: OWNER_EMAIL, passwordHash: "bench", activatedAt: new Date(), emailVerifiedAt: new Date() })
        .returning({ id: users.id });
      await tx.execute(sql`
        insert into profiles (type, owner_id, name, username, status, published_at)
        select 'artist', ${owner!.id}, 'Bench Artist ' || g, 'bench-artist-' || g, 'published', now()
        from generate_series(1, ${BENCH_ARTISTS}) g`);
      // Release g: every tenth on the demo page, else on bench artist (g % 90) + 1. Types and statuses cycle.
      await tx.execute(sql`
        with bench_artists as (
          select id, row_number() over (order by id) as k from profiles where owner_id = ${owner!.id}
        )
        insert into releases (artist_id, title, slug, type, upc, label, release_date, status, created_at, updated_at)
        select
          case when g % 10 = 0 then ${demoArtist.id} else a.id end,
          'Bench Release ' || g,
          'bench-release-' || g,
          (array['single', 'ep', 'album'])[(g % 3) + 1],
          '9' || lpad(g::text, 11, '0'),
          'Bench Records',
          date '2025-01-01' + (g % 900),
          (array['draft', 'pending_approval', 'approved', 'rejected', 'in_distribution', 'in_distribution'])[(g % 6) + 1],
          timestamptz '2025-01-01' + make_interval(mins => g),
          timestamptz '2025-01-01' + make_interval(mins => g)
        from generate_series(1, ${COUNT}) g
        join bench_artists a on a.k = (g % ${BENCH_ARTISTS}) + 1`);
      // One to three songs per release (track t = 1..(n % 3) + 1), on the release's artist page; the ISRC
      // encodes release and track, so the tracks join on its unique index.
      const isrc = (n: string, t: string) => sql.raw(`'QZBN' || chr(64 + ${t}) || lpad(${n}::text, 7, '0')`);
      await tx.execute(sql`
        insert into songs (artist_id, title, isrc, duration_seconds, explicit, audio_format, audio_bit_depth, audio_sample_rate, audio_channels, created_at, updated_at)
        select r.artist_id, 'Bench Song ' || r.n || '-' || t, ${isrc("r.n", "t")},
               150 + (r.n * 7 + t * 13) % 200, (r.n + t) % 11 = 0, 'wav', 24, 48000, 2, r.created_at, r.created_at
        from (select artist_id, created_at, substring(slug from 15)::int as n from releases where slug like 'bench-release-%') r
        cross join lateral generate_series(1, (r.n % 3) + 1) t`);
      await tx.execute(sql`
        insert into release_tracks (release_id, song_id, position)
        select r.id, s.id, t
        from (select id, substring(slug from 15)::int as n from releases where slug like 'bench-release-%') r
        cross join lateral generate_series(1, (r.n % 3) + 1) t
        join songs s on s.isrc = ${isrc("r.n", "t")}`);
    });
    console.error(`[bench] ${COUNT} releases seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(JSON.stringify({ releases: COUNT }));
} finally {
  await shutdown();
}
process.exit(0);
