import type { SubmissionResult } from "@conform-to/react";
import { useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";

/**
 * A multipart form that shows its upload's progress (app/modules/http/progress-upload.server.ts). With JavaScript
 * the submit is sent by XMLHttpRequest (fetch reports no upload progress) to the form's `data-progress-action`
 * (a resource route answering JSON), the percentage shows in a <progress> bar and, every tenth, in a polite live
 * region; the answer is a redirect to follow (client-side, so the flash shows) or the form's reply to show beside
 * the fields. Without JavaScript the form posts to its `action` as it is.
 */

export interface ProgressUpload {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** 0-100 while sending, null otherwise. */
  percent: number | null;
  /** The form's reply from the last upload (errors beside the fields), to give Conform as its lastResult. */
  result: SubmissionResult<string[]> | undefined;
  /** The upload itself failed (connection lost, server error). */
  failure: string | null;
}

export function useProgressUpload(): ProgressUpload {
  const navigate = useNavigate();
  const [percent, setPercent] = useState<number | null>(null);
  const [result, setResult] = useState<SubmissionResult<string[]> | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const busy = useRef(false);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (event.defaultPrevented) return;
    event.preventDefault();
    if (busy.current) return;
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const body = new FormData(form, submitter);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.dataset.progressAction ?? form.action);
    xhr.responseType = "json";
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) setPercent(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    });
    const done = () => {
      busy.current = false;
      setPercent(null);
    };
    xhr.addEventListener("load", () => {
      done();
      const answer = xhr.response as { location?: string; result?: SubmissionResult<string[]> } | null;
      if (answer?.location) {
        setResult(undefined);
        navigate(answer.location);
      } else if (answer?.result) {
        setResult(answer.result);
      } else {
        setFailure(xhr.status === 413 ? "The file is too large." : "The upload failed. Try again in a moment.");
      }
    });
    for (const type of ["error", "abort", "timeout"] as const) {
      xhr.addEventListener(type, () => {
        done();
        setFailure("The upload was interrupted. Check your connection and try again.");
      });
    }
    busy.current = true;
    setFailure(null);
    setPercent(0);
    xhr.send(body);
  };

  return { onSubmit, percent, result, failure };
}

/** The bar and its spoken progress (every tenth), shown while an upload is sent. */
export function UploadProgress({ percent, label }: { percent: number | null; label: string }) {
  if (percent === null) return null;
  return (
    <div className="space-y-1">
      <progress max={100} value={percent} aria-label={label} className="h-2 w-full overflow-hidden rounded accent-brand-900" />
      {/* Polite, not a status role: the page's flash message is the status region. */}
      <p aria-live="polite" className="text-sm text-stone-700">
        {percent < 100 ? `Uploading: ${Math.floor(percent / 10) * 10}%` : "Uploaded: checking the audio…"}
      </p>
    </div>
  );
}
