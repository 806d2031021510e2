import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert } from "xmlbuilder2";
import { db } from "~/db/client.server";
import { releaseDeliveries, releases, songs, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { findRelease } from "~/modules/catalog/catalog.server";
import { setCoverArt } from "~/modules/catalog/releases/cover-art.server";
import { approveRelease } from "~/modules/catalog/releases/release-status.server";
import { storage } from "~/modules/storage/storage.server";
import { startAppServer, type AppServer } from "../../../../tests/helpers/app-server";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { sessionCookieFor } from "../../../../tests/helpers/requests";
import { wav } from "../../../../tests/helpers/audio";
import { startS3Server } from "../../../../tests/helpers/s3-server";
import { useTestSettings } from "../../../../tests/setup/settings";
import { buildDeliveryPackage } from "./delivery.server";
import { isoDuration } from "./ddex-ern.server";

useTestDatabase();

const md5 = (data: Uint8Array) => createHash("md5").update(data).digest("hex");
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

async function storedBytes(key: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage().read(key)) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

type XmlNode = Record<string, unknown>;
const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function parse(xml: string): XmlNode {
  return convert(xml, { format: "object" }) as XmlNode;
}

describe("delivery package (DDEX ERN 4.3)", () => {
  let admin: User;
  let lateTrainsId: number;
  let northboundId: number;

  beforeAll(async () => {
    await seedDemoData();
    admin = (await findUserByEmail("admin@example.com"))!;
    lateTrainsId = (await db().select({ id: releases.id }).from(releases).where(eq(releases.slug, "late-trains")))[0]!.id;
    northboundId = (await db().select({ id: releases.id }).from(releases).where(eq(releases.slug, "northbound")))[0]!.id;
  });

  it("writes durations as ISO 8601", () => {
    expect(isoDuration(201)).toBe("PT3M21S");
    expect(isoDuration(59)).toBe("PT0M59S");
    expect(isoDuration(3725)).toBe("PT1H2M5S");
  });

  it("builds a well-formed NewReleaseMessage with the release's codes, order, durations and deal; lists what is missing", async () => {
    const release = (await findRelease(lateTrainsId))!;
    const { delivery, manifest } = await buildDeliveryPackage(lateTrainsId, admin.id);
    expect(delivery.releaseId).toBe(lateTrainsId);
    expect(delivery.messageId).toBe(manifest.messageId);
    // The demo seed stores a short tone for every demo track (docs/demo-data.md) but no cover: only the cover is missing.
    expect(manifest.missing).toEqual(["Cover art: no image stored"]);

    expect(delivery.packagePath).toBe(`deliveries/${lateTrainsId}/${delivery.messageId}.zip`);
    const zipped = await storedBytes(delivery.packagePath);
    expect(sha256(zipped)).toBe(delivery.packageSha256);
    expect(zipped.length).toBe(delivery.packageBytes);
    const entries = unzipSync(zipped);
    expect(Object.keys(entries).sort()).toEqual([
      "196589000019/196589000019.xml",
      "196589000019/manifest.json",
      ...release.tracks.map((t) => `196589000019/resources/196589000019_01_${String(t.position).padStart(3, "0")}.wav`),
    ]);
    const xmlBytes = entries["196589000019/196589000019.xml"]!;
    expect(manifest.files[0]).toMatchObject({ path: "196589000019/196589000019.xml", md5: md5(xmlBytes), sha256: sha256(xmlBytes) });

    const xml = new TextDecoder().decode(xmlBytes);
    const message = parse(xml)["ern:NewReleaseMessage"] as XmlNode;
    expect(message["@xmlns:ern"]).toBe("http://ddex.net/xml/ern/43");
    // The top-level elements, in the schema's order.
    expect(Object.keys(message).filter((k) => !k.startsWith("@"))).toEqual(["MessageHeader", "PartyList", "ResourceList", "ReleaseList", "DealList"]);
    const header = message.MessageHeader as XmlNode;
    expect(header.MessageId).toBe(delivery.messageId);
    expect(header.MessageCreatedDateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const recordings = asArray((message.ResourceList as XmlNode).SoundRecording as XmlNode[]);
    expect(recordings.map((r) => ((r.SoundRecordingEdition as XmlNode).ResourceId as XmlNode).ISRC)).toEqual([
      "USBL12600001",
      "USBL12600002",
      "USBL12600003",
      "USBL12600004",
    ]);
    expect(recordings.map((r) => r.Duration)).toEqual(release.tracks.map((t) => isoDuration(t.durationSeconds!)));
    expect(recordings[0]!.DisplayTitleText).toBe("Late Trains");

    const releaseList = message.ReleaseList as XmlNode;
    const main = releaseList.Release as XmlNode;
    expect((main.ReleaseId as XmlNode).ICPN).toBe("196589000019");
    expect(main.ReleaseType).toBe("EP");
    const items = asArray(((main.ResourceGroup as XmlNode).ResourceGroup as XmlNode).ResourceGroupContentItem as XmlNode[]);
    expect(items.map((i) => i.ReleaseResourceReference)).toEqual(["A1", "A2", "A3", "A4"]);
    expect(asArray(releaseList.TrackRelease as XmlNode[])).toHaveLength(4);

    const deals = asArray((message.DealList as XmlNode).ReleaseDeal as XmlNode[]);
    expect(deals.map((d) => d.DealReleaseReference)).toEqual(["R0", "R1", "R2", "R3", "R4"]);
    const terms = asArray(deals[0]!.Deal as XmlNode[]).map((d) => d.DealTerms as XmlNode);
    expect(terms.map((t) => t.UseType)).toEqual(["OnDemandStream", "PermanentDownload"]);
    expect(terms[0]!.TerritoryCode).toBe(release.territories.includes("WW") ? "Worldwide" : release.territories[0]);
    expect((terms[0]!.ValidityPeriod as XmlNode).StartDate).toBe("2026-03-06");

    // The verified producer credit and the writers are contributors.
    expect(xml).toContain("<Role>Producer</Role>");
    expect(xml).toContain("Paul Producer");
  });

  it("packs the stored audio and cover with hashes that match; approval builds a package by itself", async () => {
    // Northbound: give its song a real stored WAV and the release a real cover.
    const release = (await findRelease(northboundId))!;
    const songId = release.tracks[0]!.songId;
    const audio = wav({ seconds: 1 });
    const audioPath = `audio/${songId}-${"a".repeat(32)}.wav`;
    await storage().put(audioPath, audio);
    await db().update(songs).set({ audioPath, audioFormat: "wav", audioBitDepth: 16, audioSampleRate: 44_100, audioChannels: 2 }).where(eq(songs.id, songId));
    // Cover art goes on a draft; the demo release is put back to pending review to be approved.
    await db().update(releases).set({ status: "draft" }).where(eq(releases.id, northboundId));
    const cover = await sharp({ create: { width: 1400, height: 1400, channels: 3, background: "#335577" } })
      .png()
      .toBuffer();
    await setCoverArt({ id: northboundId, status: "draft" }, new File([new Uint8Array(cover)], "cover.png", { type: "image/png" }));
    await db().update(releases).set({ status: "pending_approval" }).where(eq(releases.id, northboundId));

    const before = await db().select().from(releaseDeliveries).where(eq(releaseDeliveries.releaseId, northboundId));
    await approveRelease((await findRelease(northboundId))!, admin);
    const after = await db().select().from(releaseDeliveries).where(eq(releaseDeliveries.releaseId, northboundId));
    expect(after).toHaveLength(before.length + 1);
    const delivery = after.find((d) => !before.some((b) => b.id === d.id))!;

    const entries = unzipSync(await storedBytes(delivery.packagePath));
    const audioEntry = entries["196589000026/resources/196589000026_01_001.wav"]!;
    expect(Buffer.from(audioEntry).equals(audio)).toBe(true);
    const coverEntry = entries["196589000026/resources/196589000026.jpg"]!;
    expect((await sharp(coverEntry).metadata()).format).toBe("jpeg");

    const manifest = JSON.parse(new TextDecoder().decode(entries["196589000026/manifest.json"]!)) as {
      files: Array<{ path: string; md5: string; sha256: string }>;
      missing: string[];
    };
    expect(manifest.missing).toEqual([]);
    for (const file of manifest.files) {
      expect(file.md5, file.path).toBe(md5(entries[file.path]!));
      expect(file.sha256, file.path).toBe(sha256(entries[file.path]!));
    }
    const xml = new TextDecoder().decode(entries["196589000026/196589000026.xml"]!);
    const message = parse(xml)["ern:NewReleaseMessage"] as XmlNode;
    const recording = (message.ResourceList as XmlNode).SoundRecording as XmlNode;
    const file = (((recording.SoundRecordingEdition as XmlNode).TechnicalDetails as XmlNode).DeliveryFile as XmlNode).File as XmlNode;
    expect(file.URI).toBe("resources/196589000026_01_001.wav");
    expect((file.HashSum as XmlNode).HashSumValue).toBe(md5(audio));
    const image = (message.ResourceList as XmlNode).Image as XmlNode;
    expect(image.Type).toBe("FrontCoverImage");
    expect((((image.TechnicalDetails as XmlNode).File as XmlNode).HashSum as XmlNode).HashSumValue).toBe(md5(coverEntry));
    expect((message.ReleaseList as XmlNode).Release).toMatchObject({ ReleaseType: "Single", ResourceGroup: { LinkedReleaseResourceReference: "A2" } });
  });

  describe("download route", () => {
    let server: AppServer;
    beforeAll(async () => {
      server = await startAppServer();
    });
    afterAll(() => server?.close());

    it("gives an administrator the zip; 404 for another release's id or an unknown one; members never", async () => {
      const [delivery] = await db().select().from(releaseDeliveries).where(eq(releaseDeliveries.releaseId, lateTrainsId)).limit(1);
      const adminCookie = await sessionCookieFor(admin.id);
      const get = (url: string, cookie: string) => fetch(`${server.url}${url}`, { headers: { Cookie: cookie }, redirect: "manual" });

      const ok = await get(`/admin/release-profile/${lateTrainsId}/delivery/${delivery!.id}`, adminCookie);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toBe("application/zip");
      expect(ok.headers.get("content-disposition")).toBe(`attachment; filename="${delivery!.messageId}.zip"`);
      expect(sha256(new Uint8Array(await ok.arrayBuffer()))).toBe(delivery!.packageSha256);

      expect((await get(`/admin/release-profile/${northboundId}/delivery/${delivery!.id}`, adminCookie)).status).toBe(404);
      expect((await get(`/admin/release-profile/${lateTrainsId}/delivery/999999`, adminCookie)).status).toBe(404);
      expect((await get(`/admin/release-profile/${lateTrainsId}/delivery/abc`, adminCookie)).status).toBe(404);

      const member = (await findUserByEmail("member@example.com"))!;
      const asMember = await get(`/admin/release-profile/${lateTrainsId}/delivery/${delivery!.id}`, await sessionCookieFor(member.id));
      expect(asMember.status).not.toBe(200);
      expect(asMember.headers.get("content-type")).not.toBe("application/zip");
      const anonymous = await fetch(`${server.url}/admin/release-profile/${lateTrainsId}/delivery/${delivery!.id}`, { redirect: "manual" });
      expect(anonymous.status).toBe(302);
    });
  });

  it("builds the package from and into an S3 bucket: audio and cover read from it, the zip stored in it and downloaded from it", async () => {
    const s3 = await startS3Server();
    const server = await startAppServer();
    try {
      useTestSettings({ STORAGE_URL: s3.url });
      const release = (await findRelease(northboundId))!;
      const songId = release.tracks[0]!.songId;
      // Longer than one 5 MB multipart part, so the zip is stored in parts while the audio is read.
      const audio = wav({ seconds: 40 });
      const audioPath = `audio/${songId}-${"c".repeat(32)}.wav`;
      await storage().put(audioPath, audio);
      await db().update(songs).set({ audioPath, audioFormat: "wav", audioBitDepth: 16, audioSampleRate: 44_100, audioChannels: 2 }).where(eq(songs.id, songId));
      const cover = await sharp({ create: { width: 1400, height: 1400, channels: 3, background: "#557733" } })
        .png()
        .toBuffer();
      const status = release.status;
      await db().update(releases).set({ status: "draft" }).where(eq(releases.id, northboundId));
      await setCoverArt({ id: northboundId, status: "draft" }, new File([new Uint8Array(cover)], "cover.png", { type: "image/png" }));
      await db().update(releases).set({ status }).where(eq(releases.id, northboundId));

      const { delivery, manifest } = await buildDeliveryPackage(northboundId, admin.id);
      expect(manifest.missing.filter((m) => m.startsWith("Track") || m.startsWith("Cover"))).toEqual([]);
      const zipped = await storedBytes(delivery.packagePath);
      expect([sha256(zipped), zipped.length]).toEqual([delivery.packageSha256, delivery.packageBytes]);
      expect(Buffer.from(unzipSync(zipped)["196589000026/resources/196589000026_01_001.wav"]!).equals(audio)).toBe(true);

      const downloaded = await fetch(`${server.url}/admin/release-profile/${northboundId}/delivery/${delivery.id}`, {
        headers: { Cookie: await sessionCookieFor(admin.id) },
        redirect: "manual",
      });
      expect(downloaded.status).toBe(200);
      expect(sha256(new Uint8Array(await downloaded.arrayBuffer()))).toBe(delivery.packageSha256);
    } finally {
      useTestSettings();
      await server.close();
      await s3.close();
    }
  });
});
