import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { db } from "~/db/client.server";
import { profiles, songs, type ProfileType, type User } from "~/db/schema";
import { acceptEstimate, sendEstimate, type EstimateInput } from "~/modules/marketplace/estimates.server";
import { createWorkRequest, type WorkRequestInput } from "~/modules/marketplace/work-requests.server";
import { fundProject } from "~/modules/marketplace/projects.server";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import crypto from "node:crypto";

/** A published provider profile of `owner`. */
export async function createProviderProfile(owner: User, type: Exclude<ProfileType, "artist"> = "audio_engineer", status: "published" | "draft" = "published") {
  const username = `p${crypto.randomBytes(5).toString("hex")}`;
  const [profile] = await db()
    .insert(profiles)
    .values({ type, ownerId: owner.id, name: `Provider ${username}`, username, status, publishedAt: status === "published" ? new Date() : null })
    .returning();
  return profile!;
}

/** A song on an artist page `owner` owns. */
export async function createOwnedSong(owner: User, title = "Night Drive") {
  const username = `a${crypto.randomBytes(5).toString("hex")}`;
  const [artist] = await db()
    .insert(profiles)
    .values({ type: "artist", ownerId: owner.id, name: `Artist ${username}`, username, status: "published" })
    .returning();
  const [song] = await db().insert(songs).values({ artistId: artist!.id, title, createdBy: owner.id }).returning();
  return song!;
}

export const inDays = (days: number, from = new Date()) => new Date(from.getTime() + days * 86_400_000);
export const isoIn = (days: number) => inDays(days).toISOString().slice(0, 10);

export const requestInput = (overrides: Partial<WorkRequestInput> = {}): WorkRequestInput => ({
  service: "mixing",
  description: "Mix my single, 12 stems, reference attached.",
  referenceLinks: ["https://example.com/reference"],
  budgetCents: 50_000,
  deadline: isoIn(30),
  songId: null,
  ...overrides,
});

export const estimateInput = (overrides: Partial<EstimateInput> = {}): EstimateInput => ({
  lineItems: [
    { description: "Mix", amountCents: 40_000 },
    { description: "Stem prep", amountCents: 10_001 },
  ],
  deliveryDays: 10,
  revisionsIncluded: 2,
  pointsBps: null,
  expiresAt: inDays(14),
  ...overrides,
});

/** A project opened between `client` and `provider` (accepted estimate), optionally funded by `admin`. */
export async function openProject(
  client: User,
  provider: User,
  options: { admin?: User; request?: Partial<WorkRequestInput>; estimate?: Partial<EstimateInput>; type?: Exclude<ProfileType, "artist"> } = {},
) {
  const profile = await createProviderProfile(provider, options.type ?? "audio_engineer").catch(async () => {
    const [existing] = await db()
      .select()
      .from(profiles)
      .where(sql`${profiles.ownerId} = ${provider.id} and ${profiles.type} = ${options.type ?? "audio_engineer"}`);
    return existing!;
  });
  const request = await createWorkRequest(client, profile.id, requestInput(options.request));
  const estimate = await sendEstimate(provider, request.id, estimateInput(options.estimate));
  const { project } = await acceptEstimate(client, estimate.id);
  if (options.admin) return { profile, request, estimate, project: await fundProject(options.admin, project.id, "wire 0001") };
  return { profile, request, estimate, project };
}

/** Awaits a refusal and checks its status. */
export async function refusedWith(promise: Promise<unknown>, status: number): Promise<MarketplaceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketplaceError);
  expect((error as MarketplaceError).status).toBe(status);
  return error as MarketplaceError;
}

export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
