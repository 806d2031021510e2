/**
 * A PCM WAV file, byte by byte (RIFF header, fmt chunk, data chunk): the demo seed's tones and the tests' audio
 * files are written with it, so neither needs a fixture. `sample(frame)` gives each frame's value (the same on every
 * channel) as a signed integer of `bitDepth` bits; without it the file is silence.
 */
export function pcmWav({
  bitDepth,
  sampleRate,
  channels,
  frames,
  sample,
}: {
  bitDepth: number;
  sampleRate: number;
  channels: number;
  frames: number;
  sample?: (frame: number) => number;
}): Buffer {
  const bytesPerSample = bitDepth / 8;
  const blockAlign = channels * bytesPerSample;
  const data = Buffer.alloc(frames * blockAlign);
  if (sample) {
    for (let i = 0; i < frames; i++) {
      const value = sample(i);
      for (let c = 0; c < channels; c++) data.writeIntLE(value, i * blockAlign + c * bytesPerSample, bytesPerSample);
    }
  }
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
