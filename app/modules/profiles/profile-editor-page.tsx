import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState, type ReactNode } from "react";
import { Form, Link, useActionData } from "react-router";
import { Avatar } from "~/components/avatar";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { StatusTag } from "~/components/status-tag";
import { BandSection } from "./band-section";
import { ProfileDetailsForm } from "./profile-editor-details";
import type { EditorForm, ProfileEditorLoaderData } from "./profile-editor-route.server";
import { ArtistAvatarSchema, HeroImageSchema } from "./profile-schemas";
import { PROFILE_STATUS_LABELS, PROFILE_TYPE_INFO } from "./profile-types";
import { ProfileStatusPanel } from "./status-panel";

/**
 * The single-profile page of both areas (the owner's page and the admin's): header image, status and
 * moderation, the details form, the images and, for an artist, the band. Every form is a plain POST with
 * an `intent`, handled by profileEditorAction.
 */
export function ProfileEditorPage({ loaderData }: { loaderData: ProfileEditorLoaderData }) {
  const data = loaderData;
  const actionData = useActionData() as { form?: string; result?: SubmissionResult<string[]> } | undefined;
  const resultFor = (form: EditorForm) => (actionData?.form === form ? actionData.result : undefined);
  const { profile, hero, type, area, rights, band, version } = data;
  const info = PROFILE_TYPE_INFO[type];
  const noun = info.provider ? `${info.label} profile` : "Artist page";

  return (
    <div className="mx-auto w-full max-w-4xl">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-medium text-stone-500">{noun}</p>
          <h1 className="mt-0.5 text-2xl font-semibold tracking-tight break-words">{profile.name}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-600">
            <StatusTag status={profile.status} label={PROFILE_STATUS_LABELS[profile.status]} />
            <span className="break-all">@{profile.username}</span>
          </p>
        </div>
        <Link
          to={data.publicPath}
          className="inline-flex shrink-0 items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 focus-visible:ring-2 focus-visible:ring-brand-700 focus-visible:outline-none"
        >
          View public page
        </Link>
      </header>

      <div className="mt-6 space-y-6">
        <HeroBanner name={profile.name} hero={hero} />

        <ProfileStatusPanel profile={profile} rights={rights} area={area} />

        <Section
          id="details"
          title="Details"
          description={
            info.provider
              ? "What people see on your public profile and in the directory: who you are, what you do, your rates and your work."
              : "What people see on the artist's public page and in the directory."
          }
        >
          <ProfileDetailsForm key={version} data={data} lastResult={resultFor("details")} />
        </Section>

        <Section
          id="hero"
          title="Header image"
          description="A wide picture shown at the top of the public page. We crop it to 16:9 (728x410 and larger); use at least 64x64 pixels, ideally 1456x820."
        >
          <ImageForm
            key={`hero-${version}`}
            field="hero"
            intent="hero"
            removeIntent="remove-hero"
            label={hero ? "New header image" : "Header image"}
            current={hero?.src ?? null}
            lastResult={resultFor("hero")}
            submitLabel="Upload header image"
            removeLabel="Remove header image"
            preview={(src) => <img src={src} alt="" className="aspect-[728/410] w-full max-w-sm rounded-md object-cover" />}
          />
        </Section>

        {type === "artist" ? (
          <Section id="avatar" title="Picture" description="A square picture of the artist, shown in lists and beside the name. At least 64x64 pixels.">
            <ImageForm
              key={`avatar-${version}`}
              field="avatar"
              intent="avatar"
              removeIntent="remove-avatar"
              label={profile.avatarImg ? "New picture" : "Picture"}
              current={profile.avatarImg}
              lastResult={resultFor("avatar")}
              submitLabel="Upload picture"
              removeLabel="Remove picture"
              action="?form=avatar"
              preview={(src) => <Avatar name={profile.name} src={src} size={96} />}
              placeholder={<Avatar name={profile.name} src={null} size={96} />}
            />
          </Section>
        ) : null}

        {type === "artist" && band ? <BandSection band={band} rights={rights} currentUserId={data.currentUserId} /> : null}
      </div>
    </div>
  );
}

function HeroBanner({ name, hero }: { name: string; hero: ProfileEditorLoaderData["hero"] }) {
  if (hero) {
    return (
      <img
        src={hero.src}
        srcSet={hero.srcSet}
        sizes="(min-width: 768px) 728px, 100vw"
        width={728}
        height={410}
        alt={`Header image of ${name}`}
        className="aspect-[728/410] w-full rounded-xl border border-stone-200 bg-stone-100 object-cover"
      />
    );
  }
  return (
    <div className="flex aspect-[728/410] w-full flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-stone-300 bg-stone-50 p-6 text-center">
      <p className="text-sm font-medium text-stone-700">No header image yet</p>
      <p className="text-sm text-stone-500">
        <a href="#hero-heading" className="font-medium text-brand-900 underline underline-offset-2 hover:text-brand-800">
          Upload one
        </a>{" "}
        to give the public page a face.
      </p>
    </div>
  );
}

export function Section({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border border-stone-200 bg-white shadow-sm">
      <div className="grid gap-6 p-5 sm:p-6 md:grid-cols-3">
        <div>
          <h2 id={`${id}-heading`} className="scroll-mt-20 text-base font-semibold">
            {title}
          </h2>
          <p className="mt-1 text-sm text-stone-600">{description}</p>
        </div>
        <div className="min-w-0 md:col-span-2">{children}</div>
      </div>
    </section>
  );
}

/**
 * Upload (and remove) one image. The browser checks the size and declared type before sending (the same
 * schema the server runs) and previews a file it can display; the server decodes it and has the last word.
 */
function ImageForm({
  field,
  intent,
  removeIntent,
  label,
  current,
  lastResult,
  submitLabel,
  removeLabel,
  action,
  preview,
  placeholder,
}: {
  field: "hero" | "avatar";
  intent: string;
  removeIntent: string;
  label: string;
  current: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
  submitLabel: string;
  removeLabel: string;
  action?: string;
  preview: (src: string) => ReactNode;
  placeholder?: ReactNode;
}) {
  const schema = field === "hero" ? HeroImageSchema : ArtistAvatarSchema;
  // One component for both image fields: the field name is the only difference.
  const [form, fields] = useForm<Record<string, File>>({
    id: `profile-${field}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const meta = fields[field];
  const [chosen, setChosen] = useState<string | null>(null);
  useEffect(() => () => void (chosen && URL.revokeObjectURL(chosen)), [chosen]);
  const shown = chosen ?? current;
  return (
    <div className="space-y-4">
      {shown ? <div>{preview(shown)}</div> : (placeholder ?? null)}
      <Form method="post" action={action} encType="multipart/form-data" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          label={label}
          help="JPEG, PNG, WebP or GIF, up to 5 MB."
          inputProps={{
            ...getInputProps(meta, { type: "file" }),
            accept: "image/*",
            onChange: (event) => {
              const file = event.currentTarget.files?.[0];
              setChosen(null);
              if (!file || !file.type.startsWith("image/")) return;
              // Only a file the browser can display is previewed (the server still decides).
              const url = URL.createObjectURL(file);
              const probe = new Image();
              probe.onload = () => setChosen(url);
              probe.onerror = () => URL.revokeObjectURL(url);
              probe.src = url;
            },
          }}
          errors={meta.errors}
          errorId={meta.errorId}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end sm:[&>*]:w-auto">
          <SubmitButton name="intent" value={intent} pendingLabel="Uploading…">
            {submitLabel}
          </SubmitButton>
        </div>
      </Form>
      {current ? (
        <Form method="post" className="flex justify-end border-t border-stone-100 pt-4">
          <button
            type="submit"
            name="intent"
            value={removeIntent}
            className="rounded-md px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:outline-none"
          >
            {removeLabel}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
