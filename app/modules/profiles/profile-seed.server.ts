import { and, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { artistMembers, profileRates, profileReferenceValues, profiles, referenceValues, users, type ProfileType } from "~/db/schema";

interface DemoProfile {
  /** The demo member who owns the page (docs/demo-data.md). */
  owner: string;
  type: ProfileType;
  name: string;
  username: string;
  bio: string;
  location: string;
  values: string[];
  rates?: Array<{ label: string; amountCents: number; unit: "per_song" | "per_hour" | "per_day" | "per_project" }>;
}

/** The demo members' pages, published, so the directories have something to show on a first run. */
const DEMO_PROFILES: DemoProfile[] = [
  {
    owner: "member@example.com",
    type: "artist",
    name: "Mia and the Midnight Owls",
    username: "midnight-owls",
    bio: "A four-piece indie folk band from Nashville, playing songs about late trains and early mornings.",
    location: "Nashville, United States",
    values: ["Indie", "Folk"],
  },
  {
    owner: "member@example.com",
    type: "musician",
    name: "Mia Member",
    username: "mia",
    bio: "Session guitarist and backing vocalist. Fast turnaround, clean takes, happy to try ideas.",
    location: "Nashville, United States",
    values: ["Indie", "Folk", "Country", "Session Musician", "Acoustic Guitar", "Electric Guitar", "Vocals", "English"],
    rates: [
      { label: "Guitar track", amountCents: 15000, unit: "per_song" },
      { label: "Studio session", amountCents: 6000, unit: "per_hour" },
    ],
  },
  {
    owner: "producer@example.com",
    type: "music_producer",
    name: "Paul Producer",
    username: "paul-beats",
    bio: "Producer and co-writer behind Late Trains and Northbound. Warm analogue drums, honest vocals, finished mixes.",
    location: "Nashville, United States",
    values: ["Indie", "Folk", "Hip-Hop/Rap", "Beat Making", "Arranging", "Recording", "English"],
    rates: [{ label: "Production per song", amountCents: 40000, unit: "per_song" }],
  },
];

/** Idempotent: a demo profile whose username is taken already is left alone. */
export async function seedDemoProfiles(tx: Db): Promise<void> {
  const owners = await tx
    .select({ id: users.id, email: sql<string>`lower(${users.email})` })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, [...new Set(DEMO_PROFILES.map((p) => p.owner))]));
  const now = new Date();
  for (const demo of DEMO_PROFILES) {
    const owner = owners.find((o) => o.email === demo.owner);
    if (!owner) continue;
    const [created] = await tx
      .insert(profiles)
      .values({
        type: demo.type,
        ownerId: owner.id,
        name: demo.name,
        username: demo.username,
        bio: demo.bio,
        location: demo.location,
        status: "published",
        submittedAt: now,
        reviewedAt: now,
        publishedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: profiles.id });
    if (!created) continue;
    if (demo.type === "artist") {
      await tx.insert(artistMembers).values({ artistId: created.id, userId: owner.id, role: "owner", canEdit: true });
    }
    const values = await tx
      .select({ id: referenceValues.id })
      .from(referenceValues)
      .where(and(inArray(referenceValues.name, demo.values)));
    if (values.length) {
      await tx.insert(profileReferenceValues).values(values.map((v) => ({ profileId: created.id, valueId: v.id })));
    }
    if (demo.rates?.length) {
      await tx.insert(profileRates).values(demo.rates.map((rate, position) => ({ ...rate, profileId: created.id, position })));
    }
  }
}
