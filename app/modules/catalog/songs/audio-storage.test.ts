import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { profiles, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { findSong } from "~/modules/catalog/catalog.server";
import { storage } from "~/modules/storage/storage.server";
import { startAppServer, type AppServer } from "../../../../tests/helpers/app-server";
import { wav } from "../../../../tests/helpers/audio";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { createSignedMember } from "../../../../tests/helpers/factories";
import { sessionCookieFor } from "../../../../tests/helpers/requests";
import { startS3Server, type S3TestServer } from "../../../../tests/helpers/s3-server";
import { useTestSettings } from "../../../../tests/setup/settings";
import { audioKey } from "./audio.server";
import { createSong } from "./song-editor.server";
import { SongDetailsSchema } from "./song-schemas";

/**
 * A song's master uploaded through the real song page (multipart, streamed) and played back through the real
 * /storage/audio/{songId} route with byte ranges, on both storage drivers (docs/decisions/033-object-storage.md):
 * the folder, and an S3 bucket on s3rver.
 */

useTestDatabase();

let server: AppServer;
let mia: User;
let stranger: User;
let artistId: number;

beforeAll(async () => {
  await seedDemoData();
  mia = (await findUserByEmail("member@example.com"))!;
  stranger = await createSignedMember("Stan");
  artistId = (await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls")))[0]!.id;
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
  useTestSettings();
});

describe.each(["file", "s3"] as const)("song audio on the %s driver", (driver) => {
  let s3: S3TestServer | undefined;
  let songId: number;
  let miaCookie: string;
  // 3 s of 16-bit stereo: about 530 KB, more than one read chunk, fewer than one multipart part.
  const master = wav({ seconds: 3 });
  // Mark the bytes so that a range from the wrong place cannot pass.
  for (let i = 44; i < master.length; i += 2) master.writeUInt16LE(i % 65_521, i);

  beforeAll(async () => {
    if (driver === "s3") s3 = await startS3Server();
    useTestSettings(s3 ? { STORAGE_URL: s3.url } : {});
    expect(storage().driver).toBe(driver);
    songId = (await createSong(mia, artistId, SongDetailsSchema.parse({ title: `Stored on ${driver}` }))).id;
    miaCookie = await sessionCookieFor(mia.id);
  });
  afterAll(async () => {
    useTestSettings();
    await s3?.close();
  });

  const upload = async (bytes: Buffer) => {
    const form = new FormData();
    form.append("audio", new File([new Uint8Array(bytes)], "master.wav", { type: "audio/wav" }));
    return fetch(`${server.url}/member/${mia.id}/song-profile/${songId}?upload=audio`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.origin, Cookie: miaCookie },
      body: form,
    });
  };
  const play = (headers: Record<string, string> = {}, cookie = miaCookie, method = "GET") =>
    fetch(`${server.url}/storage/audio/${songId}`, { method, redirect: "manual", headers: { Cookie: cookie, ...headers } });

  it("stores the uploaded master in this storage and plays it whole, by ranges and by HEAD", async () => {
    const uploaded = await upload(master);
    expect(uploaded.status, await uploaded.clone().text()).toBe(302);
    const key = audioKey((await findSong(songId))!.audioPath)!;
    expect(key).toMatch(new RegExp(`^audio/${songId}-[0-9a-f]{32}\\.wav$`));
    expect((await storage().stat(key))!.size).toBe(master.length);

    const whole = await play();
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await whole.arrayBuffer()).equals(master)).toBe(true);

    const middle = await play({ Range: "bytes=100000-165535" });
    expect([middle.status, middle.headers.get("content-range"), middle.headers.get("content-length")]).toEqual([
      206,
      `bytes 100000-165535/${master.length}`,
      "65536",
    ]);
    expect(Buffer.from(await middle.arrayBuffer()).equals(master.subarray(100_000, 165_536))).toBe(true);

    const first = await play({ Range: "bytes=0-1" });
    expect([first.status, Buffer.from(await first.arrayBuffer()).toString("latin1")]).toEqual([206, "RI"]);
    const open = await play({ Range: `bytes=${master.length - 10}-` });
    expect(Buffer.from(await open.arrayBuffer()).equals(master.subarray(master.length - 10))).toBe(true);
    const suffix = await play({ Range: "bytes=-4" });
    expect([suffix.status, suffix.headers.get("content-range")]).toEqual([206, `bytes ${master.length - 4}-${master.length - 1}/${master.length}`]);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(master.subarray(master.length - 4))).toBe(true);
    const past = await play({ Range: `bytes=${master.length}-` });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, `bytes */${master.length}`]);

    const head = await play({}, miaCookie, "HEAD");
    expect([head.status, head.headers.get("content-length"), await head.text()]).toEqual([200, String(master.length), ""]);
  });

  it("keeps the access check: another member gets 404, a visitor the login page", async () => {
    const other = await play({ Range: "bytes=0-1" }, await sessionCookieFor(stranger.id));
    expect(other.status).toBe(404);
    expect(other.headers.get("content-type")).not.toBe("audio/wav");
    const visitor = await play({}, "");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login/);
  });

  it("replacing the master deletes the old one from this storage", async () => {
    const before = audioKey((await findSong(songId))!.audioPath)!;
    const next = wav({ seconds: 1, channels: 1 });
    expect((await upload(next)).status).toBe(302);
    const after = audioKey((await findSong(songId))!.audioPath)!;
    expect(after).not.toBe(before);
    expect(await storage().exists(before)).toBe(false);
    const played = await play();
    expect(Buffer.from(await played.arrayBuffer()).equals(next)).toBe(true);
  });
});
