import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { Form, Link } from "react-router";
import { FormAlert, SelectField, SubmitButton } from "~/components/forms";
import type { ReleaseDetail } from "~/modules/catalog/catalog.server";
import { formatDuration, releaseFieldAnchor } from "../release-options";
import { buttonSecondary, ReasonNote, type ReleaseFormProps, StepField } from "./release-page-parts";

/** The ordered tracks with move up/down and remove, and the chooser of the artist's other songs. */
export function ReleaseTracksEditor({
  release,
  songs,
  action,
  step,
  lastResult,
  songPath,
}: ReleaseFormProps & {
  release: Pick<ReleaseDetail, "tracks" | "rejectionReasons">;
  songs: Array<{ id: number; title: string; version: string; durationSeconds: number | null }>;
  /** The song profile's address (links to fix a track). */
  songPath?: (songId: number) => string;
}) {
  const [form, fields] = useForm({ id: "release-tracks", lastResult });
  const rowButton = "rounded-md border border-stone-300 bg-white px-2 py-1 text-xs font-medium text-stone-700 hover:bg-stone-50 disabled:opacity-40";
  return (
    <div id={releaseFieldAnchor("tracks")} className="scroll-mt-20 space-y-4">
      <FormAlert id={form.errorId} errors={form.errors} />
      <ReasonNote reasons={release.rejectionReasons} fields={["tracks"]} />
      {release.tracks.length === 0 ? (
        <p className="text-sm text-stone-600">No tracks yet: add the artist's songs below.</p>
      ) : (
        <ol className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label="Tracks">
          {release.tracks.map((track, index) => (
            <li key={track.songId} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="font-medium break-words">
                  {track.position}.{" "}
                  {songPath ? (
                    <Link to={songPath(track.songId)} className="underline-offset-2 hover:underline">
                      {track.title}
                    </Link>
                  ) : (
                    track.title
                  )}
                  {track.version ? <span className="text-stone-500"> ({track.version})</span> : null}
                </p>
                <p className="text-xs text-stone-500">
                  {formatDuration(track.durationSeconds)} · {track.isrc ?? "ISRC assigned at submission"}
                  {track.explicit ? " · Explicit" : ""}
                  {track.audio ? "" : " · No audio yet"}
                </p>
              </div>
              <div className="flex gap-2">
                {(["up", "down"] as const).map((direction) => (
                  <Form key={direction} method="post" action={action}>
                    <input type="hidden" name="songId" value={track.songId} />
                    <input type="hidden" name="direction" value={direction} />
                    <StepField step={step} />
                    <button
                      type="submit"
                      name="intent"
                      value="move-track"
                      disabled={direction === "up" ? index === 0 : index === release.tracks.length - 1}
                      className={rowButton}
                      aria-label={`Move “${track.title}” ${direction}`}
                    >
                      {direction === "up" ? "↑ Up" : "↓ Down"}
                    </button>
                  </Form>
                ))}
                <Form method="post" action={action}>
                  <input type="hidden" name="songId" value={track.songId} />
                  <StepField step={step} />
                  <button type="submit" name="intent" value="remove-track" className={rowButton} aria-label={`Remove “${track.title}”`}>
                    Remove
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ol>
      )}
      <Form method="post" action={action} className="flex flex-col gap-3 sm:flex-row sm:items-end" {...getFormProps(form)}>
        <StepField step={step} />
        <div className="flex-1">
          <SelectField
            label="Add a song"
            errors={fields.songId.errors}
            errorId={fields.songId.errorId}
            selectProps={{ ...getSelectProps(fields.songId), id: "release-add-song" }}
            options={[
              { value: "", label: songs.length ? "Choose a song…" : "No other songs of this artist" },
              ...songs.map((s) => ({ value: s.id, label: `${s.title}${s.version ? ` (${s.version})` : ""} · ${formatDuration(s.durationSeconds)}` })),
            ]}
          />
        </div>
        <SubmitButton name="intent" value="add-track" pendingLabel="Adding…" className={buttonSecondary}>
          Add track
        </SubmitButton>
      </Form>
    </div>
  );
}
