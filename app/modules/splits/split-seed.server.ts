import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { profiles, songs, splitEvents, splitParties, splitVersions, users } from "~/db/schema";
import { DEMO_ARTIST_USERNAME } from "~/modules/catalog/catalog-seed.server";
import { formatBps, sharesTotalProblem } from "./split-rules";

/**
 * The demo splits of docs/demo-data.md ("Splits"), exactly as written there:
 * - Late Trains: one version from 2026-01-01, Mia 5,000 and Paul 3,000 (accepted), nina@example.com 2,000
 *   (invited, pending: her share is held);
 * - Northbound: version 1 from 2026-01-01, Mia 10,000; version 2 from 2026-07-01, Mia 7,000 and Paul 3,000
 *   (accepted).
 * A song that has any split version already is left alone. Answers carry the IP "seed", like the demo signatures.
 */

const MIA = "member@example.com";
const PAUL = "producer@example.com";
const NINA = "nina@example.com";

interface DemoParty {
  email: string;
  shareBps: number;
  /** When they accepted; absent for a pending invitee. */
  acceptedAt?: string;
}

interface DemoVersion {
  effectiveFrom: string;
  proposedAt: string;
  confirmedAt: string;
  parties: DemoParty[];
}

const DEMO_SPLITS: Array<{ isrc: string; versions: DemoVersion[] }> = [
  {
    isrc: "USBL12600001",
    versions: [
      {
        effectiveFrom: "2026-01-01",
        proposedAt: "2025-12-10T10:00:00Z",
        confirmedAt: "2025-12-15T09:30:00Z",
        parties: [
          { email: MIA, shareBps: 5_000, acceptedAt: "2025-12-10T10:00:00Z" },
          { email: PAUL, shareBps: 3_000, acceptedAt: "2025-12-11T16:20:00Z" },
          { email: NINA, shareBps: 2_000 },
        ],
      },
    ],
  },
  {
    isrc: "USBL12600005",
    versions: [
      {
        effectiveFrom: "2026-01-01",
        proposedAt: "2025-12-10T10:05:00Z",
        confirmedAt: "2025-12-10T10:06:00Z",
        parties: [{ email: MIA, shareBps: 10_000, acceptedAt: "2025-12-10T10:05:00Z" }],
      },
      {
        effectiveFrom: "2026-07-01",
        proposedAt: "2026-05-20T14:00:00Z",
        confirmedAt: "2026-05-28T11:00:00Z",
        parties: [
          { email: MIA, shareBps: 7_000, acceptedAt: "2026-05-20T14:00:00Z" },
          { email: PAUL, shareBps: 3_000, acceptedAt: "2026-05-22T08:45:00Z" },
        ],
      },
    ],
  },
];

export async function seedDemoSplits(tx: Db): Promise<void> {
  const people = await tx
    .select({ id: users.id, email: sql<string>`lower(${users.email})`, name: users.name, lastName: users.lastName })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, [MIA, PAUL]));
  const person = (email: string) => people.find((p) => p.email === email) ?? null;
  const mia = person(MIA);
  if (!mia) return;
  const demoSongs = await tx
    .select({ id: songs.id, isrc: songs.isrc, hasSplit: sql<boolean>`exists (select 1 from ${splitVersions} v where v.song_id = ${songs.id})` })
    .from(songs)
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .where(
      and(
        eq(sql`lower(${profiles.username})`, DEMO_ARTIST_USERNAME),
        inArray(
          songs.isrc,
          DEMO_SPLITS.map((s) => s.isrc),
        ),
      ),
    );

  for (const demo of DEMO_SPLITS) {
    const song = demoSongs.find((s) => s.isrc === demo.isrc);
    if (!song || song.hasSplit) continue;
    for (const [index, v] of demo.versions.entries()) {
      const problem = sharesTotalProblem(v.parties.map((p) => p.shareBps));
      if (problem) throw new Error(`Demo split of ${demo.isrc}: ${problem}`);
      const [version] = await tx
        .insert(splitVersions)
        .values({
          songId: song.id,
          number: index + 1,
          effectiveFrom: v.effectiveFrom,
          status: "confirmed",
          proposedBy: mia.id,
          proposedAt: new Date(v.proposedAt),
          confirmedBy: mia.id,
          confirmedAt: new Date(v.confirmedAt),
        })
        .returning({ id: splitVersions.id });
      const parties = await tx
        .insert(splitParties)
        .values(
          v.parties.map((p, position) => {
            const member = person(p.email);
            return {
              versionId: version!.id,
              userId: member?.id ?? null,
              email: p.email,
              name: member ? `${member.name} ${member.lastName}`.trim() : p.email,
              shareBps: p.shareBps,
              status: p.acceptedAt ? ("accepted" as const) : ("pending" as const),
              answeredAt: p.acceptedAt ? new Date(p.acceptedAt) : null,
              answeredIp: p.acceptedAt ? "seed" : null,
              answeredUserAgent: p.acceptedAt ? "seed" : null,
              position,
            };
          }),
        )
        .returning();
      const miaName = `${mia.name} ${mia.lastName}`.trim();
      await tx.insert(splitEvents).values([
        {
          songId: song.id,
          versionId: version!.id,
          kind: "proposed" as const,
          message: `${miaName} proposed version ${index + 1}, effective ${v.effectiveFrom}: ${parties.map((p) => `${p.name} ${formatBps(p.shareBps)}`).join(", ")}.`,
          actorId: mia.id,
          ip: "seed",
          createdAt: new Date(v.proposedAt),
        },
        ...parties
          .filter((p) => p.status === "accepted" && p.userId !== mia.id)
          .map((p) => ({
            songId: song.id,
            versionId: version!.id,
            partyId: p.id,
            kind: "accepted" as const,
            message: `${p.name} accepted ${formatBps(p.shareBps)} of version ${index + 1}.`,
            actorId: p.userId,
            ip: "seed",
            createdAt: p.answeredAt!,
          })),
        {
          songId: song.id,
          versionId: version!.id,
          kind: "confirmed" as const,
          message:
            `${miaName} confirmed version ${index + 1}: in force from ${v.effectiveFrom}.` +
            (parties.some((p) => p.status === "pending")
              ? ` Still pending, their share held until they answer: ${parties
                  .filter((p) => p.status === "pending")
                  .map((p) => p.name)
                  .join(", ")}.`
              : ""),
          actorId: mia.id,
          ip: "seed",
          createdAt: new Date(v.confirmedAt),
        },
      ]);
    }
  }
}
