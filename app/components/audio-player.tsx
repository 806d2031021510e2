/**
 * The browser's own audio player (keyboard and screen-reader accessible as it is), for a stored file served with
 * byte ranges (app/modules/http/file-response.server.ts). `preload="none"`: nothing is fetched until the member
 * presses play, so a page listing many files stays light. Without a playable format the text offers the download.
 */
export function AudioPlayer({ src, label, className = "w-full max-w-md" }: { src: string; label: string; className?: string }) {
  return (
    <audio controls preload="none" src={src} aria-label={label} className={className}>
      <a href={src}>Download {label.replace(/^Listen to /, "")}</a>
    </audio>
  );
}

/** Whether a browser plays this MIME type in an <audio> element (AIFF and zips are download-only). */
export function isPlayableAudio(mime: string): boolean {
  return /^audio\/(wav|x-wav|wave|flac|x-flac|mpeg|mp3|aac|mp4|x-m4a|ogg|opus|webm)$/i.test(mime);
}
