import { pcmWav } from "../../app/modules/catalog/songs/wav-file";

/** A WAV file of silence, so audio tests need no fixtures: `wav({ bitDepth: 8 })` is refused, the defaults (16-bit, 44.1 kHz, stereo) pass. */
export function wav({
  bitDepth = 16,
  sampleRate = 44_100,
  channels = 2,
  seconds = 1,
}: { bitDepth?: number; sampleRate?: number; channels?: number; seconds?: number } = {}): Buffer {
  return pcmWav({ bitDepth, sampleRate, channels, frames: Math.round(sampleRate * seconds) });
}
