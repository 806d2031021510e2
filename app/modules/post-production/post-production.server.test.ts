import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { notifications, postProductionJobs, songs, users, type User } from "~/db/schema";
import { loadLoggedUser } from "~/modules/accounts/logged-user.server";
import { readSessionUser } from "~/modules/accounts/session-user.server";
import { audioKey } from "~/modules/catalog/songs/audio.server";
import { storage } from "~/modules/storage/storage.server";
import { hasValidSignature } from "~/modules/security/signed-url.server";
import { wav } from "../../../tests/helpers/audio";
import { createUser, uniqueEmail } from "../../../tests/helpers/factories";
import { creditEarnings } from "../../../tests/helpers/ledger";
import { setConfigValue } from "~/modules/config/config.server";
import { escrowAccountBalanceMicros, jobEscrowAccount } from "~/modules/marketplace/escrow.server";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createOwnedSong, refusedWith } from "../../../tests/helpers/marketplace";
import { sessionCookieFor } from "../../../tests/helpers/requests";
import { bindInvitedJobs, createJob } from "./job-creation.server";
import { deliveryForDownload, receiveDelivery, sourceAudioForDownload } from "./job-deliveries.server";
import { adminListJobs, getJob, listMemberJobs } from "./job-queries.server";
import {
  acceptDeliveryAsAudio,
  acceptJob,
  advanceJobStage,
  cancelJob,
  declineJob,
  fundJob,
  JOB_BALANCE_REFERENCE,
  payJobFromBalance,
  requestJobRevision,
} from "./job-transitions.server";

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
  const { job } = await createJob(owner, { songId: song.id, service, amount: "150.00", engineerEmail: to.email.toUpperCase(), notes: "Warm, not loud." });
  return { song, job };
}

/** The engineer accepts and an administrator confirms the owner's transfer: the work starts. */
async function acceptAndFund(jobId: number, by: User = engineer) {
  await acceptJob(by, jobId);
  return fundJob(admin, jobId, `WIRE-${jobId}`);
}

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
    const { job, inviteUrl } = await createJob(owner, { songId: song.id, service: "mastering", amount: "150.00", engineerEmail: email });
    expect(job).toMatchObject({ engineerId: null, invitedEmail: email.toLowerCase(), status: "pending" });
    expect(inviteUrl).toMatch(new RegExp(`/post-production-jobs/create-account\\?job=${job.id}&expires=\\d+&signature=[0-9a-f]{64}$`));
    expect(hasValidSignature(inviteUrl!)).toBe(true);
    expect(hasValidSignature(inviteUrl!.replace(`job=${job.id}`, `job=${job.id + 1}`))).toBe(false);
  });

  it("refuses bad input beside its field, someone else's song, one's own address, and administrators", async () => {
    const song = await createOwnedSong(owner);
    const theirs = await createOwnedSong(stranger);
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "recording", amount: "150.00", engineerEmail: engineer.email }), 400)).field).toBe(
      "service",
    );
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: "not an email" }), 400)).field).toBe(
      "engineerEmail",
    );
    expect((await refusedWith(createJob(owner, { songId: theirs.id, service: "mixing", amount: "150.00", engineerEmail: engineer.email }), 400)).field).toBe(
      "songId",
    );
    expect((await refusedWith(createJob(owner, { songId: 0, service: "mixing", amount: "150.00", engineerEmail: engineer.email }), 400)).field).toBe("songId");
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: ` ${owner.email} ` }), 400)).field).toBe(
      "engineerEmail",
    );
    expect((await refusedWith(createJob(owner, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: admin.email }), 400)).field).toBe(
      "engineerEmail",
    );
    expect(
      (
        await refusedWith(
          createJob(owner, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: engineer.email, notes: "x".repeat(2001) }),
          400,
        )
      ).field,
    ).toBe("notes");
    await refusedWith(createJob(admin, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: engineer.email }), 404);
  });
});

describe("the engineer's answer and the stages", () => {
  it("accepts: only the engineer, only while pending", async () => {
    const { job } = await newJob();
    await refusedWith(acceptJob(owner, job.id), 404);
    await refusedWith(acceptJob(stranger, job.id), 404);
    await refusedWith(acceptJob(admin, job.id), 404);
    const accepted = await acceptJob(engineer, job.id);
    // A priced job waits for its money before the work starts.
    expect(accepted).toMatchObject({ status: "awaiting_funding", stage: null, fundingStatus: "unfunded" });
    expect((await refusedWith(acceptJob(engineer, job.id), 409)).message).toMatch(/awaiting funding/);
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
    await acceptJob(engineer, job.id);
    await refusedWith(advanceJobStage(engineer, job.id), 409); // awaiting funding
    expect((await fundJob(admin, job.id, "WIRE-STAGES")).stage).toBe("in_mixing_and_mastering");
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
    await refusedWith(receiveDelivery(uploadRequest(wav()), engineer, job.id), 409); // not funded yet
    await fundJob(admin, job.id, "WIRE-UPLOAD");
    await refusedWith(receiveDelivery(uploadRequest(wav()), owner, job.id), 404);
    await refusedWith(receiveDelivery(uploadRequest(wav()), stranger, job.id), 404);
    const html = await refusedWith(receiveDelivery(uploadRequest(Buffer.from("<html><script>alert(1)</script>")), engineer, job.id), 400);
    expect(html).toMatchObject({ field: "file", message: "This file is not WAV or FLAC audio." });
    // Audio the deliverable code knows, but not lossless audio a song can take.
    expect(
      (await refusedWith(receiveDelivery(uploadRequest(Buffer.concat([Buffer.from("ID3"), Buffer.alloc(64)]), "mix.mp3"), engineer, job.id), 400)).field,
    ).toBe("file");
    expect((await refusedWith(receiveDelivery(uploadRequest(wav({ bitDepth: 8 })), engineer, job.id), 400)).message).toMatch(/16-bit/);
    expect((await refusedWith(receiveDelivery(uploadRequest(Buffer.alloc(0)), engineer, job.id), 400)).field).toBe("file");
    // Nothing refused was kept.
    expect(await storage().list(`post-production/${job.id}/`)).toEqual([]);
    const { job: delivered, delivery } = await receiveDelivery(uploadRequest(wav({ seconds: 2 }), "Final mix.wav"), engineer, job.id);
    expect(delivered.status).toBe("delivered");
    expect(delivery).toMatchObject({ fileName: "Final mix.wav", format: "wav", bitDepth: 16, sampleRate: 44_100, channels: 2, durationSeconds: 2, round: 0 });
    expect(delivery.filePath).toMatch(new RegExp(`^post-production/${job.id}/[0-9a-f]{32}\\.wav$`));
    expect(await storage().exists(delivery.filePath)).toBe(true);
  });

  it("sends a delivery back for a revision (owner only, only when delivered), then takes the new one", async () => {
    const { job } = await newJob();
    await acceptAndFund(job.id);
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
    await db()
      .update(songs)
      .set({
        audioPath: "audio/1-00000000000000000000000000000000.flac",
        audioFormat: "flac",
        audioBitDepth: 24,
        audioSampleRate: 48_000,
        audioChannels: 2,
        durationSeconds: 200,
      })
      .where(eq(songs.id, song.id));
    await acceptAndFund(job.id);
    await refusedWith(acceptDeliveryAsAudio(owner, job.id), 409); // nothing delivered
    await receiveDelivery(uploadRequest(wav()), engineer, job.id);
    const { delivery } = await receiveDelivery(uploadRequest(wav({ seconds: 3, channels: 1 })), engineer, job.id);
    await refusedWith(acceptDeliveryAsAudio(engineer, job.id), 404);
    await refusedWith(acceptDeliveryAsAudio(stranger, job.id), 404);
    await refusedWith(acceptDeliveryAsAudio(admin, job.id), 404);
    const { job: done } = await acceptDeliveryAsAudio(owner, job.id);
    expect(done).toMatchObject({ status: "completed", stage: "completed", acceptedDeliveryId: delivery.id });
    expect(done.previousAudio).toEqual({
      path: "audio/1-00000000000000000000000000000000.flac",
      format: "flac",
      bitDepth: 24,
      sampleRate: 48_000,
      channels: 2,
      durationSeconds: 200,
    });
    const [updated] = await db().select().from(songs).where(eq(songs.id, song.id));
    expect(updated).toMatchObject({ audioFormat: "wav", audioBitDepth: 16, audioSampleRate: 44_100, audioChannels: 1, durationSeconds: 3 });
    expect(updated!.audioPath).toMatch(new RegExp(`^audio/${song.id}-[0-9a-f]{32}\\.wav$`));
    expect(await storage().exists(audioKey(updated!.audioPath)!)).toBe(true);
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
    await acceptAndFund(job.id);
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
    const { job: a } = await createJob(owner, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: email });
    const { job: b } = await createJob(owner, { songId: song.id, service: "mastering", amount: "150.00", engineerEmail: email });
    const { job: c } = await createJob(owner, { songId: song.id, service: "mastering", amount: "150.00", engineerEmail: email });
    await cancelJob(owner, c.id, "Not needed.");
    // Before binding, the invited address's jobs are nobody's but the owner's.
    const newcomer = await createUser({ email });
    await refusedWith(getJob(newcomer, a.id), 404);
    await refusedWith(acceptJob(newcomer, a.id), 404);
    const bound = await bindInvitedJobs(db(), newcomer);
    expect(bound.sort()).toEqual([a.id, b.id].sort());
    expect(await bindInvitedJobs(db(), newcomer)).toEqual([]);
    expect((await getJob(newcomer, a.id)).role).toBe("engineer");
    expect((await acceptJob(newcomer, a.id)).status).toBe("awaiting_funding");
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
    await acceptAndFund(job.id);
    const { delivery } = await receiveDelivery(uploadRequest(wav()), engineer, job.id);
    expect(await deliveryForDownload(stranger, delivery.id)).toBeNull();
    expect((await deliveryForDownload(engineer, delivery.id))?.delivery.id).toBe(delivery.id);
    expect((await deliveryForDownload(admin, delivery.id))?.delivery.id).toBe(delivery.id);
    expect(await sourceAudioForDownload(engineer, job.id)).toBeNull(); // the song has no audio
    await db()
      .update(songs)
      .set({
        audioPath: `audio/${song.id}-00000000000000000000000000000000.wav`,
        audioFormat: "wav",
        audioBitDepth: 16,
        audioSampleRate: 44_100,
        audioChannels: 2,
      })
      .where(eq(songs.id, song.id));
    expect((await sourceAudioForDownload(engineer, job.id))?.format).toBe("wav");
    expect(await sourceAudioForDownload(stranger, job.id)).toBeNull();
  });

  it("lists a member's jobs as owner and as engineer, by status; administrators filter and search everything", async () => {
    const lister = await createUser({ name: "Lena", lastName: "Lister" });
    const song = await createOwnedSong(lister, "Paper Planes");
    const { job: one } = await createJob(lister, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: engineer.email });
    const { job: two } = await createJob(lister, { songId: song.id, service: "mastering", amount: "150.00", engineerEmail: engineer.email });
    await acceptAndFund(two.id);
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
    await createJob(fresh, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: engineer.email });
    const { job } = await createJob(owner, { songId: (await createOwnedSong(owner)).id, service: "mastering", amount: "150.00", engineerEmail: fresh.email });
    await declineJob(fresh, job.id);
    expect((await readSessionUser(cookie)).postProductionJobsCount).toBe(2);
    expect((await loadLoggedUser(fresh)).post_production_jobs_count).toBe(2);
    const [row] = await db().select().from(users).where(eq(users.id, stranger.id));
    expect((await loadLoggedUser(row!)).post_production_jobs_count).toBe(0);
    expect(await db().$count(postProductionJobs, eq(postProductionJobs.ownerId, fresh.id))).toBe(1);
  });
});

describe("money: a price, escrow, release and refunds (the projects' escrow code)", () => {
  /** A member's earnings account balance, in micro-units, from the postings. */
  async function earnings(userId: number) {
    const result = await db().execute(
      sql`select coalesce(sum(p.amount_micros), 0)::text as s from postings p join ledger_accounts a on a.id = p.account_id where a.kind = 'earnings' and a.user_id = ${userId}`,
    );
    return BigInt((result as unknown as { rows: Array<{ s: string }> }).rows[0]!.s);
  }
  /** Every entry balanced; the job's escrow holds funded − released − fee − refunded. */
  async function expectEscrowConsistent(jobId: number) {
    const [job] = await db().select().from(postProductionJobs).where(eq(postProductionJobs.id, jobId));
    expect(await escrowAccountBalanceMicros(jobEscrowAccount(jobId))).toBe(job!.fundedMicros - job!.releasedMicros - job!.feeMicros - job!.refundedMicros);
    const result = await db().execute(sql`select count(*)::int as n from (select entry_id from postings group by entry_id having sum(amount_micros) <> 0) x`);
    expect((result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    return job!;
  }

  it("takes a price in dollars and cents beside its field, and keeps the fee in force when the job is made", async () => {
    const song = await createOwnedSong(owner);
    for (const amount of ["", "0", "-5", "12.345", "abc", "1000000.01"]) {
      expect((await refusedWith(createJob(owner, { songId: song.id, service: "mixing", amount, engineerEmail: engineer.email }), 400)).field).toBe("amount");
    }
    await setConfigValue("marketplace_fee_bps", 2000);
    const { job } = await createJob(owner, { songId: song.id, service: "mixing", amount: "99.99", engineerEmail: engineer.email });
    await setConfigValue("marketplace_fee_bps", 1000);
    expect(job).toMatchObject({ amountCents: 9_999, feeBps: 2000, fundingStatus: "unfunded" });
  });

  it("the owner pays from their balance (only they, only once, never beyond it); accepting the delivery releases it less the fee", async () => {
    const payer = await createUser({ name: "Paula", lastName: "Payer" });
    const paid = await createUser({ name: "Erin", lastName: "Earner" });
    const song = await createOwnedSong(payer);
    const { job } = await createJob(payer, { songId: song.id, service: "mastering", amount: "150.00", engineerEmail: paid.email });
    await refusedWith(payJobFromBalance(payer, job.id), 409); // not accepted yet
    await acceptJob(paid, job.id);
    await creditEarnings(payer.id, 149_990_000n);
    expect((await refusedWith(payJobFromBalance(payer, job.id), 400)).message).toMatch(/Your available balance is \$149\.99: not enough to pay \$150\.00/);
    await creditEarnings(payer.id, 10_000n);
    await refusedWith(payJobFromBalance(paid, job.id), 404);
    await refusedWith(payJobFromBalance(stranger, job.id), 404);
    await refusedWith(payJobFromBalance(admin, job.id), 404);
    const funded = await payJobFromBalance(payer, job.id);
    expect(funded).toMatchObject({
      status: "in_progress",
      stage: "in_mastering",
      fundingStatus: "funded",
      fundingMethod: "balance",
      fundingReference: JOB_BALANCE_REFERENCE,
      fundedMicros: 150_000_000n,
    });
    expect(await earnings(payer.id)).toBe(0n);
    await refusedWith(payJobFromBalance(payer, job.id), 409);
    await refusedWith(fundJob(admin, job.id, "WIRE-TWICE"), 409);
    await expectEscrowConsistent(job.id);

    await receiveDelivery(uploadRequest(wav()), paid, job.id);
    const { job: done } = await acceptDeliveryAsAudio(payer, job.id);
    expect(done).toMatchObject({ status: "completed", fundingStatus: "released", releasedMicros: 135_000_000n, feeMicros: 15_000_000n, refundedMicros: 0n });
    expect(await earnings(paid.id)).toBe(135_000_000n);
    expect(await expectEscrowConsistent(job.id)).toMatchObject({ settleEntryId: expect.any(Number) });
  });

  it("an administrator with admin access confirms a transfer; a cancellation refunds the escrow the way it came", async () => {
    const manager = await createUser({ acctType: 2, roleId: 3 });
    const { job } = await newJob();
    await acceptJob(engineer, job.id);
    await refusedWith(fundJob(owner, job.id, "WIRE-1"), 404);
    await refusedWith(fundJob(manager, job.id, "WIRE-1"), 404);
    expect((await refusedWith(fundJob(admin, job.id, "x"), 400)).field).toBe("reference");
    expect(await fundJob(admin, job.id, "WIRE-1")).toMatchObject({ fundingStatus: "funded", fundingMethod: "manual", fundingReference: "WIRE-1" });
    await receiveDelivery(uploadRequest(wav()), engineer, job.id);
    const canceled = await cancelJob(admin, job.id, "Dispute: the owner was refunded.");
    expect(canceled).toMatchObject({ status: "canceled", fundingStatus: "refunded", refundedMicros: 150_000_000n, releasedMicros: 0n });
    await expectEscrowConsistent(job.id);

    // Paid from the balance and canceled before any delivery: the money is back in the owner's balance.
    const payer = await createUser();
    await creditEarnings(payer.id, 150_000_000n);
    const { job: second } = await createJob(payer, {
      songId: (await createOwnedSong(payer)).id,
      service: "mixing",
      amount: "150.00",
      engineerEmail: engineer.email,
    });
    await acceptJob(engineer, second.id);
    await payJobFromBalance(payer, second.id);
    expect(await earnings(payer.id)).toBe(0n);
    expect(await cancelJob(engineer, second.id, "Out sick for a month.")).toMatchObject({ fundingStatus: "refunded" });
    expect(await earnings(payer.id)).toBe(150_000_000n);
    await expectEscrowConsistent(second.id);
  });

  it("simultaneous payments from one balance fund as many jobs as it covers, each once", async () => {
    const payer = await createUser();
    const song = await createOwnedSong(payer);
    const jobs = [];
    for (let i = 0; i < 5; i++) {
      const { job } = await createJob(payer, { songId: song.id, service: "mastering", amount: "30.00", engineerEmail: engineer.email });
      await acceptJob(engineer, job.id);
      jobs.push(job);
    }
    await creditEarnings(payer.id, 100_000_000n);
    const attempts = await Promise.allSettled(jobs.flatMap((j) => Array.from({ length: 4 }, () => payJobFromBalance(payer, j.id))));
    expect(attempts.filter((a) => a.status === "rejected" && !(a.reason instanceof MarketplaceError))).toEqual([]);
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(3);
    expect(await earnings(payer.id)).toBe(10_000_000n);
    for (const j of jobs) await expectEscrowConsistent(j.id);
  });

  it("a job made before jobs had a price starts at once and holds no escrow", async () => {
    const song = await createOwnedSong(owner);
    const [legacy] = await db()
      .insert(postProductionJobs)
      .values({ ownerId: owner.id, songId: song.id, service: "mixing", engineerId: engineer.id })
      .returning();
    expect(await acceptJob(engineer, legacy!.id)).toMatchObject({ status: "in_progress", stage: "in_mixing", fundingStatus: "unfunded" });
    await refusedWith(payJobFromBalance(owner, legacy!.id), 409);
    await receiveDelivery(uploadRequest(wav()), engineer, legacy!.id);
    expect((await acceptDeliveryAsAudio(owner, legacy!.id)).job).toMatchObject({ status: "completed", fundingStatus: "unfunded", releasedMicros: 0n });
  });
});
