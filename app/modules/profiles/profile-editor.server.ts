import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { violatedUniqueConstraint } from "~/db/errors";
import {
  artistMembers,
  profileRates,
  profileReferenceValues,
  profiles,
  referenceValues,
  type Profile,
  type ProfileType,
  type ReferenceKind,
  type User,
} from "~/db/schema";
import { notFound } from "~/modules/accounts/guards.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { commitStoredImage, deleteImage, heroImagePath, storeImage, type ImageUpload } from "~/modules/images/images.server";
import { profileRights } from "./profile-access.server";
import { referenceField, USERNAME_TAKEN, type CreateProfileInput, type ProfileDetailsInput } from "./profile-schemas";
import { PROFILE_TYPE_INFO, REFERENCE_LABELS } from "./profile-types";

/**
 * Creating and editing artist pages and provider profiles (one implementation for the five types), and
 * their images. Callers guard the route (requireMemberAreaAccess / requireAdminUser); these functions
 * check the acting user against the record again, so a forged id never reaches someone else's profile.
 */

/** A refusal the user can act on: messages for the form as a whole and/or beside named fields. */
export class ProfileEditError extends Error {
  constructor(
    readonly errors: { form?: string[]; fields?: Record<string, string[]> },
    readonly status = 400,
  ) {
    super([...(errors.form ?? []), ...Object.values(errors.fields ?? {}).flat()].join(" "));
    this.name = "ProfileEditError";
  }

  static field(field: string, message: string, status = 400) {
    return new ProfileEditError({ fields: { [field]: [message] } }, status);
  }
}

type Actor = Pick<User, "id" | "acctType">;

/** Maps a unique violation on profiles to the message the form shows; anything else is rethrown. */
function uniqueViolationToEditError(error: unknown, type: ProfileType): never {
  const constraint = violatedUniqueConstraint(error);
  if (constraint === "profiles_type_username_unique") throw ProfileEditError.field("username", USERNAME_TAKEN);
  if (constraint === "profiles_one_provider_per_owner") throw oneProviderError(type);
  throw error;
}

function oneProviderError(type: ProfileType) {
  const label = PROFILE_TYPE_INFO[type].label.toLowerCase();
  return new ProfileEditError({ form: [`This member already has a ${label} profile: each member can have one of each kind.`] });
}

async function usernameTaken(type: ProfileType, username: string, exceptId?: number): Promise<boolean> {
  const [row] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(
      and(
        eq(profiles.type, type),
        sql`lower(${profiles.username}) = ${username.toLowerCase()}`,
        exceptId === undefined ? undefined : ne(profiles.id, exceptId),
      ),
    )
    .limit(1);
  return Boolean(row);
}

// ---------------------------------------------------------------- create

/**
 * Creates a draft profile of `type` for member `ownerId`. Members may create their own, admins anyone's.
 * Providers: one per type per member. An artist also gets its owner's band row (role owner, can edit),
 * in the same transaction, so the band list never lacks its owner.
 */
export async function createProfile(actor: Actor, ownerId: number, type: ProfileType, input: CreateProfileInput): Promise<Profile> {
  if (actor.id !== ownerId && !isAdminAccount(actor)) throw notFound();
  const info = PROFILE_TYPE_INFO[type];
  // Checked first for a clear message; the unique indexes below still decide under concurrent requests.
  if (info.provider) {
    const [existing] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.ownerId, ownerId), eq(profiles.type, type)))
      .limit(1);
    if (existing) throw oneProviderError(type);
  }
  if (await usernameTaken(type, input.username)) throw ProfileEditError.field("username", USERNAME_TAKEN);

  try {
    return await db().transaction(async (tx) => {
      const [profile] = await tx.insert(profiles).values({ type, ownerId, name: input.name, username: input.username, status: "draft" }).returning();
      if (type === "artist") {
        await tx.insert(artistMembers).values({ artistId: profile.id, userId: ownerId, role: "owner", canEdit: true });
      }
      return profile;
    });
  } catch (error) {
    uniqueViolationToEditError(error, type);
  }
}

// ---------------------------------------------------------------- details

/**
 * Saves the details form: name, username, bio, location, links, the reference values of the type's kinds,
 * and for providers rates, credits and sample links; all in one transaction. A retired value the profile
 * already carries may stay; a retired value cannot be added; ids that are not active values of the field's
 * kind are refused beside that field. The status does not change: a published profile stays published.
 */
export async function updateProfileDetails(actor: Actor, profile: Profile, input: ProfileDetailsInput): Promise<Profile> {
  if (!(await profileRights(actor, profile))) throw notFound();
  const info = PROFILE_TYPE_INFO[profile.type];
  if (input.username.toLowerCase() !== profile.username.toLowerCase() && (await usernameTaken(profile.type, input.username, profile.id))) {
    throw ProfileEditError.field("username", USERNAME_TAKEN);
  }

  const chosen = new Map<number, ReferenceKind>();
  for (const kind of info.reference) for (const id of input.values[kind] ?? []) chosen.set(id, kind);
  const ids = [...chosen.keys()];

  try {
    return await db().transaction(async (tx) => {
      const [found, carried] = await Promise.all([
        ids.length
          ? tx
              .select({ id: referenceValues.id, kind: referenceValues.kind, name: referenceValues.name, retiredAt: referenceValues.retiredAt })
              .from(referenceValues)
              .where(inArray(referenceValues.id, ids))
          : Promise.resolve([]),
        tx.select({ valueId: profileReferenceValues.valueId }).from(profileReferenceValues).where(eq(profileReferenceValues.profileId, profile.id)),
      ]);
      const byId = new Map(found.map((row) => [row.id, row]));
      const already = new Set(carried.map((row) => row.valueId));
      const fields: Record<string, string[]> = {};
      const refuse = (kind: ReferenceKind, message: string) => (fields[referenceField(kind)] ??= []).push(message);
      for (const [id, kind] of chosen) {
        const value = byId.get(id);
        if (!value || value.kind !== kind) refuse(kind, `Choose ${REFERENCE_LABELS[kind].plural.toLowerCase()} from the list.`);
        else if (value.retiredAt && !already.has(id)) refuse(kind, `${value.name} is no longer offered; please choose another.`);
      }
      if (Object.keys(fields).length) throw new ProfileEditError({ fields });

      const [updated] = await tx
        .update(profiles)
        .set({
          name: input.name,
          username: input.username,
          bio: input.bio,
          location: input.location,
          links: input.links,
          ...(info.provider ? { credits: input.credits ?? [], sampleLinks: input.sampleLinks ?? [] } : {}),
          updatedAt: new Date(),
        })
        .where(eq(profiles.id, profile.id))
        .returning();
      if (!updated) throw notFound();

      await tx.delete(profileReferenceValues).where(eq(profileReferenceValues.profileId, profile.id));
      if (ids.length) await tx.insert(profileReferenceValues).values(ids.map((valueId) => ({ profileId: profile.id, valueId })));

      if (info.provider) {
        await tx.delete(profileRates).where(eq(profileRates.profileId, profile.id));
        const rates = input.rates ?? [];
        if (rates.length) {
          await tx.insert(profileRates).values(
            rates.map((rate, position) => ({
              profileId: profile.id,
              label: rate.label,
              amountCents: rate.amount,
              currency: "USD",
              unit: rate.unit,
              position,
            })),
          );
        }
      }
      return updated;
    });
  } catch (error) {
    if (error instanceof ProfileEditError || violatedUniqueConstraint(error) === null) throw error;
    uniqueViolationToEditError(error, profile.type);
  }
}

// ---------------------------------------------------------------- images

/**
 * Replaces the header image: stores the upload (ImageUploadError for a file we refuse, and nothing
 * changes), saves its key in hero_img and deletes the previous image's files.
 */
export async function setHeroImage(profile: Pick<Profile, "id">, upload: ImageUpload | null | undefined): Promise<string> {
  const stored = await storeImage("hero", upload, { ownerId: profile.id });
  await commitStoredImage(stored, async () => heroImagePath(profile.id, await swapColumn(profile.id, "heroImg", stored.key)));
  return stored.key;
}

export async function removeHeroImage(profile: Pick<Profile, "id">): Promise<void> {
  const previous = await swapColumn(profile.id, "heroImg", null);
  await deleteImage(heroImagePath(profile.id, previous));
}

/** An artist's avatar: like a user's, profiles.avatar_img holds the 256x256 variant's path. */
export async function setArtistAvatar(profile: Pick<Profile, "id">, upload: ImageUpload | null | undefined): Promise<string> {
  const stored = await storeImage("avatar", upload);
  const avatarImg = stored.paths["256x256"];
  await commitStoredImage(stored, () => swapColumn(profile.id, "avatarImg", avatarImg));
  return avatarImg;
}

export async function removeArtistAvatar(profile: Pick<Profile, "id">): Promise<void> {
  await deleteImage(await swapColumn(profile.id, "avatarImg", null));
}

/** Sets an image column and returns the value it replaced (read under a row lock, so two uploads cannot both keep theirs). */
async function swapColumn(profileId: number, column: "heroImg" | "avatarImg", value: string | null): Promise<string | null> {
  return db().transaction(async (tx) => {
    const [row] = await tx.select({ value: profiles[column] }).from(profiles).where(eq(profiles.id, profileId)).for("update");
    if (!row) throw notFound();
    await tx
      .update(profiles)
      .set({ [column]: value, updatedAt: new Date() })
      .where(eq(profiles.id, profileId));
    return row.value;
  });
}
