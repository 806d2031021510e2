/**
 * A real PCM WAV file of silence, written byte by byte (RIFF header, fmt chunk, data chunk), so audio
 * tests need no fixtures: `wav({ bitDepth: 8 })` is refused, the defaults (16-bit, 44.1 kHz, stereo) pass.
 */
export function wav({
  bitDepth = 16,
  sampleRate = 44_100,
  channels = 2,
  seconds = 1,
}: { bitDepth?: number; sampleRate?: number; channels?: number; seconds?: number } = {}): Buffer {
  const blockAlign = (channels * bitDepth) / 8;
  const data = Buffer.alloc(Math.round(sampleRate * seconds) * blockAlign);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitDepth, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
