import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { countQueries } from "~/db/client.server";
import type { User } from "~/db/schema";
import { storage } from "~/modules/storage/storage.server";
import { createUser } from "../../../../tests/helpers/factories";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { openProject, refusedWith } from "../../../../tests/helpers/marketplace";
import { getProject } from "../projects.server";
import { deliverableForDownload, deliverableKey, sniffDeliverable, storeDeliverable } from "./deliverable-files.server";

useTestDatabase();

let admin: User;
let client: User;
let provider: User;
let stranger: User;

beforeAll(async () => {
  admin = await createUser({ acctType: 2, roleId: 2 });
  client = await createUser({ name: "Dee", lastName: "Client" });
  provider = await createUser({ name: "Dan", lastName: "Provider" });
  stranger = await createUser({ name: "Sid", lastName: "Stranger" });
});

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));
const WAV = bytes("RIFF", [0x24, 0, 0, 0], "WAVEfmt ", [16, 0, 0, 0]);

async function tmpFile(content: Buffer) {
  const file = path.join(os.tmpdir(), `deliverable-test-${Math.random().toString(36).slice(2)}`);
  await fs.writeFile(file, content);
  return { tmpPath: file, filename: "take.wav", bytes: content.length, sha256: null };
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

describe("what a deliverable is, by its first bytes", () => {
  it("recognises the audio formats and zip, and nothing else", () => {
    expect(sniffDeliverable(WAV)?.mime).toBe("audio/wav");
    expect(sniffDeliverable(bytes("fLaC", [0, 0, 0, 34]))?.ext).toBe("flac");
    expect(sniffDeliverable(bytes("FORM", [0, 0, 0, 0], "AIFF"))?.ext).toBe("aiff");
    expect(sniffDeliverable(bytes("OggS", [0]))?.mime).toBe("audio/ogg");
    expect(sniffDeliverable(bytes([0x50, 0x4b, 3, 4]))?.mime).toBe("application/zip");
    expect(sniffDeliverable(bytes([0, 0, 0, 32], "ftypM4A "))?.mime).toBe("audio/mp4");
    expect(sniffDeliverable(bytes("ID3", [4, 0]))?.mime).toBe("audio/mpeg");
    expect(sniffDeliverable(bytes([0xff, 0xfb, 0x90]))?.mime).toBe("audio/mpeg");
    expect(sniffDeliverable(bytes([0xff, 0xf1, 0x50]))?.mime).toBe("audio/aac");
    expect(sniffDeliverable(bytes("<html><script>"))).toBeNull();
    expect(sniffDeliverable(bytes("RIFF", [0, 0, 0, 0], "AVI "))).toBeNull();
    expect(sniffDeliverable(new Uint8Array())).toBeNull();
  });

  it("serves only paths it wrote", () => {
    expect(deliverableKey("deliverables/12/0123456789abcdef0123456789abcdef.wav")).toBe("deliverables/12/0123456789abcdef0123456789abcdef.wav");
    expect(deliverableKey("deliverables/12/../../secret.wav")).toBeNull();
    expect(deliverableKey("/etc/passwd")).toBeNull();
    expect(deliverableKey("deliverables/mix-v1.wav")).toBeNull();
  });
});

describe("storing and downloading", () => {
  it("stores a checked file for the provider, refuses empty and foreign files, and serves it to the parties only", async () => {
    const { project } = await openProject(client, provider, { admin });
    const empty = await tmpFile(Buffer.alloc(0));
    expect((await refusedWith(storeDeliverable(provider, project.id, empty), 400)).field).toBe("file");
    expect(await exists(empty.tmpPath)).toBe(false);
    const text = await tmpFile(Buffer.from("not audio at all"));
    expect((await refusedWith(storeDeliverable(provider, project.id, text), 400)).message).toMatch(/not audio/);
    expect(await exists(text.tmpPath)).toBe(false);
    // Only the provider's owner delivers; the file moved for a refused delivery is removed again.
    const byClient = await tmpFile(WAV);
    await refusedWith(storeDeliverable(client, project.id, byClient), 404);
    expect(await storage().list(`deliverables/${project.id}/`)).toEqual([]);

    const good = await tmpFile(WAV);
    const { deliverable } = await storeDeliverable(provider, project.id, good);
    expect(deliverable.mime).toBe("audio/wav");
    expect(deliverable.fileName).toBe("take.wav");
    const chunks: Buffer[] = [];
    for await (const chunk of await storage().read(deliverableKey(deliverable.filePath)!)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(WAV);
    expect(await exists(good.tmpPath)).toBe(false);
    expect((await getProject(client, project.id)).project.status).toBe("awaiting_approval");

    for (const who of [client, provider, admin]) expect((await deliverableForDownload(who, deliverable.id))?.id).toBe(deliverable.id);
    expect(await deliverableForDownload(stranger, deliverable.id)).toBeNull();
    expect(await deliverableForDownload(client, deliverable.id + 1_000_000)).toBeNull();
    expect(await deliverableForDownload(client, -1)).toBeNull();
    expect((await countQueries(() => deliverableForDownload(client, deliverable.id))).count).toBe(1);
  });
});
