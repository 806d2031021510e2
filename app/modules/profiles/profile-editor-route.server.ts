import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { ProfileType, User } from "~/db/schema";
import { requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { IMAGE_MESSAGES } from "~/modules/images/image-rules";
import { ImageUploadError, isOversizedUpload } from "~/modules/images/images.server";
import { loadReferenceOptions } from "~/modules/reference/reference-options.server";
import { handleBandIntent } from "./band-actions.server";
import { loadBand } from "./band.server";
import { requireEditableProfile } from "./profile-access.server";
import { heroImage, loadProfileExtras } from "./profile-details.server";
import { ProfileEditError, removeArtistAvatar, removeHeroImage, setArtistAvatar, setHeroImage, updateProfileDetails } from "./profile-editor.server";
import { ArtistAvatarSchema, HeroImageSchema, profileDetailsSchema, toDetailsInput } from "./profile-schemas";
import { PROFILE_TYPE_INFO, profilePaths } from "./profile-types";
import { handleStatusIntent } from "./status-actions.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { routeError } from "~/modules/http/route-errors.server";
import type { RouteArgs } from "~/request-context";

/**
 * The loader and action of the single-profile pages (the owner's `/member/{m}/{memberPage}/{id}` and the
 * admin's `/admin/{adminPage}/{id}`), shared by the ten route files: each passes its type and area.
 */

export type EditorArea = "member" | "admin";

/** Member area: the member's own area (or an admin), then rights on the profile. Admin area: an admin. */
async function guard({ request, params, context }: RouteArgs, type: ProfileType, area: EditorArea) {
  if (area === "admin") {
    const { user } = await requireAdminUser(request, context);
    const { profile, rights } = await requireEditableProfile(user, type, params.id);
    return { user, profile, rights, memberId: null };
  }
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  const { profile, rights } = await requireEditableProfile(user, type, params.id);
  return { user, profile, rights, memberId };
}

export async function profileEditorLoader(args: RouteArgs, type: ProfileType, area: EditorArea) {
  const { user, profile, rights, memberId } = await guard(args, type, area);
  const info = PROFILE_TYPE_INFO[type];
  // The guard has read the profile already; only its values and rates are still needed.
  const [extras, options, band] = await Promise.all([
    loadProfileExtras([profile.id]),
    loadReferenceOptions(info.reference),
    type === "artist" ? loadBand(profile.id) : Promise.resolve(null),
  ]);
  const { values, rates } = extras.get(profile.id)!;
  const paths = profilePaths(type, area, memberId ?? undefined);
  return {
    type,
    area,
    rights,
    currentUserId: user.id,
    profile,
    values,
    rates,
    hero: heroImage(profile),
    options,
    band,
    publicPath: paths.publicPage(profile.username),
    /** Changes on every save: the page keys its forms on it so they start afresh after a success. */
    version: profile.updatedAt.getTime().toString(36),
  };
}

export type ProfileEditorLoaderData = Awaited<ReturnType<typeof profileEditorLoader>>;

export type EditorForm = "details" | "hero" | "avatar";
const reply = (form: EditorForm, result: SubmissionResult<string[]>, status = 400) => data({ form, result }, { status });

export async function profileEditorAction(args: RouteArgs, type: ProfileType, area: EditorArea) {
  const { user, profile, rights } = await guard(args, type, area);
  const { request } = args;
  const here = new URL(request.url).pathname;

  // Refuse an oversized body before reading any of it (only the image forms send files).
  if (isOversizedUpload(request)) {
    const form: EditorForm = new URL(request.url).searchParams.get("form") === "avatar" ? "avatar" : "hero";
    return reply(form, imageError(form, IMAGE_MESSAGES.tooLarge), 413);
  }

  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const delegated = { intent, formData, actor: user as User, profile, rights, redirectTo: here };
  const handled = await handleStatusIntent(delegated);
  if (handled) return handled;
  const band = await handleBandIntent(delegated);
  if (band) return band;

  const info = PROFILE_TYPE_INFO[type];
  switch (intent) {
    case "details": {
      const submission = parseForm(formData, { schema: profileDetailsSchema(type) });
      if (submission.status !== "success") return reply("details", submission.reply());
      try {
        const updated = await updateProfileDetails(user, profile, toDetailsInput(type, submission.value));
        // A new username moves the public page; this page's address (by id) stays.
        return redirectWithFlash(here, {
          kind: "success",
          message: updated.status === "published" ? "Your changes are saved and live on the public page." : "Your changes are saved.",
        });
      } catch (error) {
        if (error instanceof ProfileEditError) {
          return reply("details", submission.reply({ formErrors: error.errors.form, fieldErrors: error.errors.fields }), error.status);
        }
        throw error;
      }
    }

    case "hero": {
      const submission = parseForm(formData, { schema: HeroImageSchema });
      if (submission.status !== "success") return reply("hero", submission.reply());
      try {
        await setHeroImage(profile, submission.value.hero);
      } catch (error) {
        if (error instanceof ImageUploadError) return reply("hero", submission.reply({ fieldErrors: { hero: [error.message] } }));
        throw error;
      }
      return redirectWithFlash(here, { kind: "success", message: "The header image is updated." });
    }

    case "remove-hero": {
      await removeHeroImage(profile);
      return redirectWithFlash(here, { kind: "success", message: "The header image is removed." });
    }

    case "avatar": {
      if (info.provider) break;
      const submission = parseForm(formData, { schema: ArtistAvatarSchema });
      if (submission.status !== "success") return reply("avatar", submission.reply());
      try {
        await setArtistAvatar(profile, submission.value.avatar);
      } catch (error) {
        if (error instanceof ImageUploadError) return reply("avatar", submission.reply({ fieldErrors: { avatar: [error.message] } }));
        throw error;
      }
      return redirectWithFlash(here, { kind: "success", message: "The artist's picture is updated." });
    }

    case "remove-avatar": {
      if (info.provider) break;
      await removeArtistAvatar(profile);
      return redirectWithFlash(here, { kind: "success", message: "The artist's picture is removed." });
    }
  }
  throw routeError(400, "Unknown form.");
}

/** A reply for an image form when the body was not read at all. */
function imageError(form: EditorForm, message: string) {
  const schema = form === "avatar" ? ArtistAvatarSchema : HeroImageSchema;
  return parseForm(new FormData(), { schema }).reply({ fieldErrors: { [form === "avatar" ? "avatar" : "hero"]: [message] } });
}
