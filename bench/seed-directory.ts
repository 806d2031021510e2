/**
 * Seeds the directory benchmark's profiles before the bench server starts (run by bench/http.js with the
 * server's settings, in the same DATA_DIR or DATABASE_URL): boots the app's database the way the server
 * will (migrations, reference lists, demo data), then inserts BENCH_DIRECTORY_PROFILES published profiles
 * (10,000 by default) spread over the five types, with genres, skills, instruments, languages, rates and
 * locations, in multi-row batches. Deterministic (seeded random numbers), and skipped when a previous run
 * already seeded this database. Prints one JSON line for bench/http.js: the ids its target URLs use.
 */
import { and, eq, like, sql } from "drizzle-orm";
import { boot, shutdown } from "../app/boot.server";
import { db } from "../app/db/client.server";
import { profiles, referenceValues, users, type ProfileType, type RateUnit, type ReferenceKind } from "../app/db/schema";
import { insertProfiles, type BulkProfile } from "../app/modules/profiles/directory-seed.server";
import { PROFILE_TYPE_INFO, PROFILE_TYPES } from "../app/modules/profiles/profile-types";

const COUNT = Number(process.env.BENCH_DIRECTORY_PROFILES ?? 10_000);
const USER_BATCH = 1000;

/** mulberry32: the same data on every run, so runs compare. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20240601);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
function some<T>(list: readonly T[], min: number, max: number): T[] {
  const n = min + Math.floor(rand() * (max - min + 1));
  const copy = [...list];
  const out: T[] = [];
  while (out.length < n && copy.length) out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0]!);
  return out;
}

const FIRST = [
  "Ada",
  "Ben",
  "Cleo",
  "Dmitri",
  "Elena",
  "Farah",
  "Gus",
  "Hana",
  "Ivo",
  "Jade",
  "Kofi",
  "Lena",
  "Milo",
  "Nia",
  "Oscar",
  "Priya",
  "Quinn",
  "Rosa",
  "Sami",
  "Tess",
  "Uma",
  "Viktor",
  "Wren",
  "Ximena",
  "Yusuf",
  "Zoe",
];
const LAST = [
  "Abbott",
  "Baker",
  "Castillo",
  "Dubois",
  "Eriksen",
  "Fischer",
  "Garcia",
  "Haddad",
  "Ito",
  "Jansen",
  "Kowalski",
  "Lindqvist",
  "Moreau",
  "Nakamura",
  "Okafor",
  "Petrov",
  "Quiroga",
  "Rossi",
  "Silva",
  "Tanaka",
  "Ueda",
  "Varga",
  "Walsh",
  "Xu",
  "Young",
  "Zimmer",
];
const ADJECTIVES = ["Midnight", "Golden", "Electric", "Velvet", "Crimson", "Silent", "Wild", "Neon", "Paper", "Hollow", "Lunar", "Rusty"];
const NOUNS = ["Owls", "Rivers", "Engines", "Foxes", "Lanterns", "Pilots", "Tides", "Ghosts", "Orchards", "Comets", "Wolves", "Harbors"];
const PLACES = [
  "Nashville, United States",
  "Austin, United States",
  "Los Angeles, United States",
  "New York, United States",
  "London, United Kingdom",
  "Manchester, United Kingdom",
  "Berlin, Germany",
  "Hamburg, Germany",
  "Paris, France",
  "Lyon, France",
  "Madrid, Spain",
  "Barcelona, Spain",
  "Lisbon, Portugal",
  "Stockholm, Sweden",
  "Oslo, Norway",
  "Reykjavik, Iceland",
  "Toronto, Canada",
  "Montreal, Canada",
  "Mexico City, Mexico",
  "São Paulo, Brazil",
  "Buenos Aires, Argentina",
  "Lagos, Nigeria",
  "Nairobi, Kenya",
  "Cape Town, South Africa",
  "Tokyo, Japan",
  "Seoul, South Korea",
  "Sydney, Australia",
  "Melbourne, Australia",
  "Mumbai, India",
  "Amsterdam, Netherlands",
];
const RATE_LABELS: Array<[string, RateUnit, number, number]> = [
  ["Studio session", "per_hour", 2_500, 15_000],
  ["Full day", "per_day", 20_000, 120_000],
  ["Per track", "per_song", 5_000, 60_000],
  ["Whole project", "per_project", 50_000, 500_000],
];

function nameFor(type: ProfileType): string {
  if (type === "artist") return rand() < 0.5 ? `The ${pick(ADJECTIVES)} ${pick(NOUNS)}` : `${pick(FIRST)} and the ${pick(NOUNS)}`;
  if (type === "studio") return `${pick(ADJECTIVES)} ${pick(NOUNS).replace(/s$/, "")} Studios`;
  return `${pick(FIRST)} ${pick(LAST)}`;
}

await boot();
try {
  const values = await db().select({ id: referenceValues.id, kind: referenceValues.kind, name: referenceValues.name }).from(referenceValues);
  const byKind = (kind: ReferenceKind) => values.filter((v) => v.kind === kind).map((v) => v.id);
  const idOf = (kind: ReferenceKind, name: string) => values.find((v) => v.kind === kind && v.name === name)!.id;

  const [{ seeded }] = (await db()
    .select({ seeded: sql<number>`count(*)::int` })
    .from(profiles)
    .where(like(profiles.username, "bench-%"))) as [{ seeded: number }];
  if (seeded > 0 && seeded !== COUNT) console.error(`[bench] this database already has ${seeded} bench profiles (not ${COUNT}); measuring those`);
  if (seeded === 0 && COUNT > 0) {
    const started = Date.now();
    // Owners left by an interrupted run (no profiles): start clean.
    await db().delete(users).where(like(users.email, "bench-owner-%@example.test"));
    // One owner per five profiles: each owns at most one provider profile of each type.
    const ownerCount = Math.ceil(COUNT / PROFILE_TYPES.length);
    const ownerIds: number[] = [];
    for (let from = 0; from < ownerCount; from += USER_BATCH) {
      const rows = await db()
        .insert(users)
        .values(
          Array.from({ length: Math.min(USER_BATCH, ownerCount - from) }, (_, i) => ({
            name: pick(FIRST),
            lastName: pick(LAST),
            email: `bench-owner-${from + i}@example.test`,
            // Not a usable hash: these owners never log in.
            passwordHash: "bench",
            activatedAt: new Date(),
            emailVerifiedAt: new Date(),
          })),
        )
        .returning({ id: users.id });
      ownerIds.push(...rows.map((r) => r.id));
    }
    const now = Date.now();
    const list: BulkProfile[] = [];
    for (let i = 0; i < COUNT; i++) {
      const type = PROFILE_TYPES[i % PROFILE_TYPES.length]!;
      const info = PROFILE_TYPE_INFO[type];
      const kinds = info.reference;
      const valueIds = [
        ...some(byKind("genre"), 1, 3),
        ...(kinds.includes("skill") ? some(byKind("skill"), 1, 3) : []),
        ...(kinds.includes("instrument") ? some(byKind("instrument"), 1, 2) : []),
        ...(kinds.includes("language") ? some(byKind("language"), 1, 2) : []),
      ];
      const rates =
        info.provider && rand() > 0.1
          ? some(RATE_LABELS, 1, 3).map(([label, unit, min, max]) => ({
              label,
              unit,
              amountCents: Math.round((min + rand() * (max - min)) / 100) * 100,
            }))
          : [];
      list.push({
        type,
        ownerId: ownerIds[Math.floor(i / PROFILE_TYPES.length)]!,
        name: nameFor(type),
        username: `bench-${info.directory}-${i}`,
        bio: `Benchmark profile ${i}.`,
        location: pick(PLACES),
        publishedAt: new Date(now - Math.floor(rand() * 730) * 86_400_000),
        valueIds,
        rates,
      });
    }
    await insertProfiles(db(), list);
    // Fresh statistics, as autovacuum would gather on a live database, so the planner sees the real sizes.
    await db().execute(sql`analyze`);
    console.error(`[bench] seeded ${COUNT} directory profiles in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const [member] = await db()
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, "member@example.com")));
  console.log(JSON.stringify({ genre: idOf("genre", "Jazz"), instrument: idOf("instrument", "Piano"), memberId: member?.id ?? null }));
} finally {
  await shutdown();
}
process.exit(0);
