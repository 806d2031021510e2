/** E2E data for tests/e2e/marketplace/projects.spec.ts, made before the server starts (prepare.ts). */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { db } from "../../../app/db/client.server";
import { profiles, songs, users, type User } from "../../../app/db/schema";
import { acceptEstimate, sendEstimate } from "../../../app/modules/marketplace/estimates.server";
import { approveDelivery, fundProject } from "../../../app/modules/marketplace/projects.server";
import { storeDeliverable } from "../../../app/modules/marketplace/projects/deliverable-files.server";
import { createWorkRequest } from "../../../app/modules/marketplace/work-requests.server";
import { Accounts } from "../../../app/modules/ledger/accounts.server";
import { postEntry } from "../../../app/modules/ledger/journal.server";
import { createReadyMembers } from "./community-members.server";
import {
  PROJECT_AMOUNT_CENTS,
  PROJECT_CLIENT_EARNINGS_CENTS,
  PROJECT_FIXTURE_ADMIN,
  PROJECT_PASSWORD,
  PROJECT_POINTS_BPS,
  PROJECT_POINTS_SONG,
  PROJECT_SCENARIOS,
  PROJECT_STRANGER,
  projectClient,
  projectProfileName,
  projectProvider,
  type ProjectScenario,
} from "./project-accounts";
import { tinyWav } from "./tiny-wav";

/** Income for the client, as a digital statement posts it (receipts → earnings), so they have a balance to pay from. */
async function creditEarnings(userId: number, cents: number) {
  const micros = BigInt(cents) * 10_000n;
  await db().transaction((tx) =>
    postEntry(tx, {
      kind: "test_income",
      memo: "e2e income for paying from the balance",
      postings: [
        { account: Accounts.receipts("digital"), amountMicros: -micros, source: "digital" },
        { account: Accounts.earnings(userId), amountMicros: micros, source: "digital" },
      ],
    }),
  );
}

async function deliver(provider: User, projectId: number, name: string) {
  const tmpPath = path.join(os.tmpdir(), `backline-e2e-deliverable-${randomBytes(8).toString("hex")}`);
  const bytes = tinyWav();
  await fs.writeFile(tmpPath, bytes);
  await storeDeliverable(provider, projectId, { tmpPath, filename: name, bytes: bytes.length, sha256: null });
}

/** An artist page of the client's with one song (the points scenario's); a draft, so no directory lists it. */
async function clientSong(client: User, key: string) {
  const [artist] = await db()
    .insert(profiles)
    .values({ type: "artist", ownerId: client.id, name: `Projects ${key} Artist`, username: `pj-${key}-artist`, status: "draft" })
    .returning({ id: profiles.id });
  const [song] = await db().insert(songs).values({ artistId: artist!.id, title: PROJECT_POINTS_SONG, createdBy: client.id }).returning({ id: songs.id });
  return song!;
}

export async function prepareProjectData(): Promise<string> {
  const keys = Object.keys(PROJECT_SCENARIOS) as ProjectScenario[];
  const members = keys.flatMap((key) => [
    { email: projectClient(key), name: "Cleo", lastName: `Client ${key}` },
    { email: projectProvider(key), name: "Pete", lastName: `Provider ${key}` },
  ]);
  await createReadyMembers([...members, { email: PROJECT_STRANGER, name: "Stan", lastName: "Stranger" }], PROJECT_PASSWORD);
  await createReadyMembers([{ email: PROJECT_FIXTURE_ADMIN, name: "Ada", lastName: "Projects Admin", acctType: 2 }], PROJECT_PASSWORD);
  const rows = await db()
    .select()
    .from(users)
    .where(inArray(users.email, [...members.map((m) => m.email), PROJECT_FIXTURE_ADMIN]));
  const byEmail = new Map(rows.map((u) => [u.email, u]));
  const admin = byEmail.get(PROJECT_FIXTURE_ADMIN)!;
  const deadline = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const now = new Date();

  for (const key of keys) {
    const client = byEmail.get(projectClient(key))!;
    const provider = byEmail.get(projectProvider(key))!;
    const [profile] = await db()
      .insert(profiles)
      .values({
        type: "music_producer",
        ownerId: provider.id,
        name: projectProfileName(key),
        username: `pj-${key}-producer`,
        bio: "Mixing for the project tests.",
        status: "published",
        publishedAt: now,
      })
      .returning({ id: profiles.id });
    // The points scenario's work is for a song of the client's, and its estimate carries points on it.
    const song = key === "points" ? await clientSong(client, key) : null;
    const request = await createWorkRequest(client, profile!.id, {
      service: "mixing",
      description: `Mix my single (${key}): vocals up front, warm low end.`,
      referenceLinks: [],
      budgetCents: PROJECT_AMOUNT_CENTS,
      deadline,
      songId: song?.id ?? null,
    });
    const estimate = await sendEstimate(provider, request.id, {
      lineItems: [{ description: "Mixing, one song", amountCents: PROJECT_AMOUNT_CENTS }],
      deliveryDays: 14,
      revisionsIncluded: 1,
      pointsBps: song ? PROJECT_POINTS_BPS : null,
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
    });
    const { project } = await acceptEstimate(client, estimate.id);
    const earnings = PROJECT_CLIENT_EARNINGS_CENTS[key];
    if (earnings) await creditEarnings(client.id, earnings);
    const state = PROJECT_SCENARIOS[key];
    if (state === "accepted") continue;
    await fundProject(admin, project.id, `E2E-FIXTURE-${key.toUpperCase()}`);
    if (state === "funded") continue;
    await deliver(provider, project.id, `${key}-mix.wav`);
    if (state === "delivered") continue;
    await approveDelivery(client, project.id);
  }
  const [check] = await db().select({ n: profiles.id }).from(profiles).where(eq(profiles.username, "pj-flow-producer"));
  if (!check) throw new Error("project fixtures: the provider profiles were not created");
  return `${members.length + 2} members and ${keys.length} projects for marketplace/projects`;
}
