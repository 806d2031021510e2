import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { notifications, postProductionJobs, songs, users, type User } from "~/db/schema";
import { env } from "~/env.server";
import { loadLoggedUser } from "~/modules/accounts/logged-user.server";
import { readSessionUser } from "~/modules/accounts/session-user.server";
import { audioFilePath } from "~/modules/catalog/songs/audio.server";
import { hasValidSignature } from "~/modules/security/signed-url.server";
import { wav } from "../../../tests/helpers/audio";
import { createUser, uniqueEmail } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createOwnedSong, refusedWith } from "../../../tests/helpers/marketplace";
import { sessionCookieFor } from "../../../tests/helpers/requests";
import {
  acceptDeliveryAsAudio,
  acceptJob,
  adminListJobs,
  advanceJobStage,
  bindInvitedJobs,
  cancelJob,
  createJob,
  declineJob,
  deliveryForDownload,
  getJob,
  listMemberJobs,
  receiveDelivery,
  requestJobRevision,
  sourceAudioForDownload,
} from "./post-production.server";

useTestDatabase();

let admin: User;
let owner: User;
let engineer: User;
let stranger: User;

beforeAll(async () => {
  admin = await createUser({ acctType: 2, roleId: 2 });
  owner = await createUser({ name: "Olive", lastName: "Owner" });
  engineer = await createUser({ name: "Eddie", lastName: "Engineer" });
  stranger = await createUser({ name: "Sid", lastName: "Stranger" });
});

/** A multipart upload of `content` as the job's delivery. */
function uploadRequest(content: Buffer, name = "mix.wav") {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(content)], name, { type: "audio/wav" }));
  return new Request("http://localhost:3999/upload", { method: "POST", body: form });
}

async function newJob(service = "mixing", to: User = engineer) {
  const song = await createOwnedSong(owner, `Song ${Math.random().toString(36).slice(2, 7)}`);
  const { job } = await createJob(owner, { songId: song.id, service, engineerEmail: to.email.toUpperCase(), notes: "Warm, not loud." });
  return { song, job };
}

const exists = (file: string) => fs.stat(file).then(() => true, () => false);

describe("creating a job", () => {
  it("binds a member engineer at once and notifies them in the app", async () => {
    const { job } = await newJob();
    expect(job).toMatchObject({ ownerId: owner.id, engineerId: engineer.id, invitedEmail: null, status: "pending", stage: null, notes: "Warm, not loud." });
    const sent = await db().select().from(notifications).where(eq(notifications.userId, engineer.id));
    expect(sent.some((n) => n.type === "PostProductionJobOffered")).toBe(true);
  });

  it("invites an address without an account by a signed link", async () => {
    const song = await createOwnedSong(owner);
    const email = uniqueEmail("invited");
    const { job, inviteUrl } = await createJob(owner, { songId: song.id, service: "mastering", engineerEmail: email });
    expect(job).toMatchObject({ engineerId: null, invitedEmail: email.toLowerCase(), status: "pending" });
    expect(inviteUrl).toMatch(new RegExp(`/post-production-jobs/create-account\\?job=${job.id}&expires=\\d+&signature=[0-9a-f]{64}$`));
    expect(hasValidSignature(inviteUrl!)).toBe(true);
    expect(hasValidSignature(inviteUrl!.replace(`job=${job.id}`, `job=${job.id + 1}`))).toBe(false);
  });

  it("refuses bad input beside its field, someone else's song, one's own address, and administrators", async () => {
    const song = await createOwnedSong(owner);
    const theirs = await createOwnedSong(stranger);
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "recording", engineerEmail: engineer.email }), 400)).field).toBe("service");
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "mixing", engineerEmail: "not an email" }), 400)).field).toBe("engineerEmail");
    expect((await refusedWith(createJob(owner, { songId: theirs.id, service: "mixing", engineerEmail: engineer.email }), 400)).field).toBe("songId");
    expect((await refusedWith(createJob(owner, { songId: 0, service: "mixing", engineerEmail: engineer.email }), 400)).field).toBe("songId");
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "mixing", engineerEmail: ` ${owner.email} ` }), 400)).field).toBe("engineerEmail");
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "mixing", engineerEmail: admin.email }), 400)).field).toBe("engineerEmail");
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "mixing", engineerEmail: engineer.email, notes: "x".repeat(2001) }), 400)).field).toBe("notes");
    await refusedWith(createJob(admin, { songId: song.id, service: "mixing", engineerEmail: engineer.email }), 404);
  });
});

describe("the engineer's answer and the stages", () => {
  it("accepts: only the engineer, only while pending", async () => {
    const { job } = await newJob();
    await refusedWith(acceptJob(owner, job.id), 404);
    await refusedWith(acceptJob(stranger, job.id), 404);
    await refusedWith(acceptJob(admin, job.id), 404);
    const accepted = await acceptJob(engineer, job.id);
    expect(accepted).toMatchObject({ status: "in_progress", stage: "in_mixing" });
    expect((await refusedWith(acceptJob(engineer, job.id), 409)).message).toMatch(/in progress/);
    await refusedWith(declineJob(engineer, job.id), 409);
  });

  it("declines: only the engineer, only while pending", async () => {
    const { job } = await newJob();
    await refusedWith(declineJob(owner, job.id), 404);
    await refusedWith(declineJob(stranger, job.id), 404);
    const declined = await declineJob(engineer, job.id, "Fully booked.");
    expect(declined).toMatchObject({ status: "declined", cancelReason: "Fully booked.", canceledBy: engineer.id });
    await refusedWith(acceptJob(engineer, job.id), 409);
  });

  it("moves through its service's stages, one at a time, and no further than the last", async () => {
    const { job } = await newJob("mixing_and_mastering");
    await refusedWith(advanceJobStage(engineer, job.id), 409); // pending
    expect((await acceptJob(engineer, job.id)).stage).toBe("in_mixing_and_mastering");
    await refusedWith(advanceJobStage(owner, job.id), 404);
    await refusedWith(advanceJobStage(stranger, job.id), 404);
    expect((await advanceJobStage(engineer, job.id)).stage).toBe("mixed");
    expect((await advanceJobStage(engineer, job.id)).stage).toBe("in_mastering");
    expect((await refusedWith(advanceJobStage(engineer, job.id), 409)).message).toMatch(/last stage/);
  });
});

describe("deliveries and the owner's answer", () => {
  it("takes lossless audio from the engineer only, checked by its bytes, and refuses the rest beside the file field", async () => {
    const { job } = await newJob();
    await refusedWith(receiveDelivery(uploadRequest(wav()), engineer, job.id), 409); // not accepted yet
    await acceptJob(engineer, job.id);
    await refusedWith(receiveDelivery(uploadRequest(wav()), owner, job.id), 404);
    await refusedWith(receiveDelivery(uploadRequest(wav()), stranger, job.id), 404);
    const html = await refusedWith(receiveDelivery(uploadRequest(Buffer.from("<html><script>alert(1)</script>")), engineer, job.id), 400);
    expect(html).toMatchObject({ field: "file", message: "This file is not WAV or FLAC audio." });
    // Audio the deliverable code knows, but not lossless audio a song can take.
    expect((await refusedWith(receiveDelivery(uploadRequest(Buffer.concat([Buffer.from("ID3"), Buffer.alloc(64)]), "mix.mp3"), engineer, job.id), 400)).field).toBe("file");
    expect((await refusedWith(receiveDelivery(uploadRequest(wav({ bitDepth: 8 })), engineer, job.id), 400)).message).toMatch(/16-bit/);
    expect((await refusedWith(receiveDelivery(uploadRequest(Buffer.alloc(0)), engineer, job.id), 400)).field).toBe("file");
    // Nothing refused was kept.
    const folder = path.resolve(env().STORAGE_DIR, "post-production", String(job.id));
    expect(await fs.readdir(folder).catch(() => [])).toEqual([]);
    const { job: delivered, delivery } = await receiveDelivery(uploadRequest(wav({ seconds: 2 }), "Final mix.wav"), engineer, job.id);
    expect(delivered.status).toBe("delivered");
    expect(delivery).toMatchObject({ fileName: "Final mix.wav", format: "wav", bitDepth: 16, sampleRate: 44_100, channels: 2, durationSeconds: 2, round: 0 });
    expect(delivery.filePath).toMatch(new RegExp(`^post-production/${job.id}/[0-9a-f]{32}\\.wav$`));
    expect(await exists(path.resolve(env().STORAGE_DIR, delivery.filePath))).toBe(true);
  });

  it("sends a delivery back for a revision (owner only, only when delivered), then takes the new one", async () => {
    const { job } = await newJob();
    await acceptJob(engineer, job.id);
    await refusedWith(requestJobRevision(owner, job.id, "Less reverb please."), 409);
    await receiveDelivery(uploadRequest(wav()), engineer, job.id);
    await refusedWith(requestJobRevision(engineer, job.id, "Less reverb please."), 404);
    await refusedWith(requestJobRevision(stranger, job.id, "Less reverb please."), 404);
    expect((await refusedWith(requestJobRevision(owner, job.id, "x"), 400)).field).toBe("note");
    const revised = await requestJobRevision(owner, job.id, "Less reverb please.");
    expect(revised).toMatchObject({ status: "revision_requested", revisions: 1, revisionNote: "Less reverb please." });
    const { delivery } = await receiveDelivery(uploadRequest(wav()), engineer, job.id);
    expect(delivery.round).toBe(1);
    expect((await getJob(owner, job.id)).deliveries).toHaveLength(2);
  });

  it("accepts the newest delivery as the song's audio, keeping the previous audio on the job", async () => {
    const { job, song } = await newJob();
    await db().update(songs).set({ audioPath: "audio/1-00000000000000000000000000000000.flac", audioFormat: "flac", audioBitDepth: 24, audioSampleRate: 48_000, audioChannels: 2, durationSeconds: 200 }).where(eq(songs.id, song.id));
    await acceptJob(engineer, job.id);
    await refusedWith(acceptDeliveryAsAudio(owner, job.id), 409); // nothing delivered
    await receiveDelivery(uploadRequest(wav()), engineer, job.id);
    const { delivery } = await receiveDelivery(uploadRequest(wav({ seconds: 3, channels: 1 })), engineer, job.id);
    await refusedWith(acceptDeliveryAsAudio(engineer, job.id), 404);
    await refusedWith(acceptDeliveryAsAudio(stranger, job.id), 404);
    await refusedWith(acceptDeliveryAsAudio(admin, job.id), 404);
    const { job: done } = await acceptDeliveryAsAudio(owner, job.id);
    expect(done).toMatchObject({ status: "completed", stage: "completed", acceptedDeliveryId: delivery.id });
    expect(done.previousAudio).toEqual({ path: "audio/1-00000000000000000000000000000000.flac", format: "flac", bitDepth: 24, sampleRate: 48_000, channels: 2, durationSeconds: 200 });
    const [updated] = await db().select().from(songs).where(eq(songs.id, song.id));
    expect(updated).toMatchObject({ audioFormat: "wav", audioBitDepth: 16, audioSampleRate: 44_100, audioChannels: 1, durationSeconds: 3 });
    expect(updated!.audioPath).toMatch(new RegExp(`^audio/${song.id}-[0-9a-f]{32}\\.wav$`));
    expect(await exists(audioFilePath(updated!.audioPath)!)).toBe(true);
    // The delivery stays downloadable on the job.
    expect(await deliveryForDownload(owner, delivery.id)).not.toBeNull();
    await refusedWith(acceptDeliveryAsAudio(owner, job.id), 409);
    await refusedWith(requestJobRevision(owner, job.id, "Too late now."), 409);
    await refusedWith(cancelJob(owner, job.id, "Changed my mind."), 409);
  });
});

describe("canceling", () => {
  it("lets either party cancel before the first delivery, with a reason", async () => {
    const first = await newJob();
    await refusedWith(cancelJob(stranger, first.job.id, "Not mine."), 404);
    expect((await refusedWith(cancelJob(owner, first.job.id, "x"), 400)).field).toBe("reason");
    expect(await cancelJob(owner, first.job.id, "Song dropped.")).toMatchObject({ status: "canceled", cancelReason: "Song dropped.", canceledBy: owner.id });
    await refusedWith(cancelJob(engineer, first.job.id, "Again."), 409);
    const second = await newJob();
    await acceptJob(engineer, second.job.id);
    expect((await cancelJob(engineer, second.job.id, "Out sick.")).status).toBe("canceled");
  });

  it("after a delivery, only an administrator cancels", async () => {
    const { job } = await newJob();
    await acceptJob(engineer, job.id);
    await receiveDelivery(uploadRequest(wav()), engineer, job.id);
    expect((await refusedWith(cancelJob(owner, job.id, "Never mind."), 409)).message).toMatch(/only an administrator/);
    await requestJobRevision(owner, job.id, "Brighter.");
    await refusedWith(cancelJob(engineer, job.id, "Never mind."), 409);
    expect(await cancelJob(admin, job.id, "Dispute settled by support.")).toMatchObject({ status: "canceled", canceledBy: admin.id });
    await refusedWith(cancelJob(admin, job.id, "Twice."), 409);
  });
});

describe("invitations", () => {
  it("binds the invited address's account to its pending jobs only, and not the owner's own", async () => {
    const email = uniqueEmail("engineer");
    const song = await createOwnedSong(owner);
    const { job: a } = await createJob(owner, { songId: song.id, service: "mixing", engineerEmail: email });
    const { job: b } = await createJob(owner, { songId: song.id, service: "mastering", engineerEmail: email });
    const { job: c } = await createJob(owner, { songId: song.id, service: "mastering", engineerEmail: email });
    await cancelJob(owner, c.id, "Not needed.");
    // Before binding, the invited address's jobs are nobody's but the owner's.
    const newcomer = await createUser({ email });
    await refusedWith(getJob(newcomer, a.id), 404);
    await refusedWith(acceptJob(newcomer, a.id), 404);
    const bound = await bindInvitedJobs(db(), newcomer);
    expect(bound.sort()).toEqual([a.id, b.id].sort());
    expect(await bindInvitedJobs(db(), newcomer)).toEqual([]);
    expect((await getJob(newcomer, a.id)).role).toBe("engineer");
    expect((await acceptJob(newcomer, a.id)).status).toBe("in_progress");
    await refusedWith(getJob(newcomer, c.id), 404);
    // Another account never takes them.
    expect(await bindInvitedJobs(db(), stranger)).toEqual([]);
  });
});

describe("reading", () => {
  it("shows a job to its owner, engineer and administrators only; downloads likewise", async () => {
    const { job, song } = await newJob();
    expect((await getJob(owner, job.id)).role).toBe("owner");
    expect((await getJob(engineer, job.id)).role).toBe("engineer");
    expect((await getJob(admin, job.id)).role).toBe("admin");
    await refusedWith(getJob(stranger, job.id), 404);
    await refusedWith(getJob(owner, 2_147_483_647), 404);
    await acceptJob(engineer, job.id);
    const { delivery } = await receiveDelivery(uploadRequest(wav()), engineer, job.id);
    expect(await deliveryForDownload(stranger, delivery.id)).toBeNull();
    expect((await deliveryForDownload(engineer, delivery.id))?.delivery.id).toBe(delivery.id);
    expect((await deliveryForDownload(admin, delivery.id))?.delivery.id).toBe(delivery.id);
    expect(await sourceAudioForDownload(engineer, job.id)).toBeNull(); // the song has no audio
    await db().update(songs).set({ audioPath: `audio/${song.id}-00000000000000000000000000000000.wav`, audioFormat: "wav", audioBitDepth: 16, audioSampleRate: 44_100, audioChannels: 2 }).where(eq(songs.id, song.id));
    expect((await sourceAudioForDownload(engineer, job.id))?.format).toBe("wav");
    expect(await sourceAudioForDownload(stranger, job.id)).toBeNull();
  });

  it("lists a member's jobs as owner and as engineer, by status; administrators filter and search everything", async () => {
    const lister = await createUser({ name: "Lena", lastName: "Lister" });
    const song = await createOwnedSong(lister, "Paper Planes");
    const { job: one } = await createJob(lister, { songId: song.id, service: "mixing", engineerEmail: engineer.email });
    const { job: two } = await createJob(lister, { songId: song.id, service: "mastering", engineerEmail: engineer.email });
    await acceptJob(engineer, two.id);
    const asOwner = await listMemberJobs(lister.id, "owner");
    expect(asOwner.rows.map((r) => r.id)).toEqual([two.id, one.id]);
    expect(asOwner.rows[0]).toMatchObject({ songTitle: "Paper Planes", engineerName: "Eddie Engineer", ownerName: "Lena Lister" });
    expect((await listMemberJobs(lister.id, "owner", 1, { status: "pending" })).rows.map((r) => r.id)).toEqual([one.id]);
    expect((await listMemberJobs(lister.id, "engineer")).total).toBe(0);
    expect((await listMemberJobs(engineer.id, "engineer")).rows.map((r) => r.id)).toContain(two.id);
    await refusedWith(adminListJobs(owner), 404);
    expect((await adminListJobs(admin, { q: "paper planes" })).rows.map((r) => r.id)).toEqual([two.id, one.id]);
    expect((await adminListJobs(admin, { q: "paper", service: "mastering" })).rows.map((r) => r.id)).toEqual([two.id]);
    expect((await adminListJobs(admin, { q: "lena", status: "in_progress" })).rows.map((r) => r.id)).toEqual([two.id]);
    expect((await adminListJobs(admin, { q: String(one.id), status: "pending" })).rows.map((r) => r.id)).toContain(one.id);
  });

  it("counts the logged user's jobs, as owner or engineer, in the session's one statement", async () => {
    const fresh = await createUser({ name: "Nia", lastName: "New" });
    const cookie = await sessionCookieFor(fresh.id);
    expect((await readSessionUser(cookie)).postProductionJobsCount).toBe(0);
    const song = await createOwnedSong(fresh);
    await createJob(fresh, { songId: song.id, service: "mixing", engineerEmail: engineer.email });
    const { job } = await createJob(owner, { songId: (await createOwnedSong(owner)).id, service: "mastering", engineerEmail: fresh.email });
    await declineJob(fresh, job.id);
    expect((await readSessionUser(cookie)).postProductionJobsCount).toBe(2);
    expect((await loadLoggedUser(fresh)).post_production_jobs_count).toBe(2);
    const [row] = await db().select().from(users).where(eq(users.id, stranger.id));
    expect((await loadLoggedUser(row!)).post_production_jobs_count).toBe(0);
    expect(await db().$count(postProductionJobs, eq(postProductionJobs.ownerId, fresh.id))).toBe(1);
  });
});
