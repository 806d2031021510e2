import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { estimates, notifications, workRequests, type User } from "~/db/schema";
import { createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createOwnedSong, createProviderProfile, estimateInput, inDays, isoIn, refusedWith, requestInput } from "../../../tests/helpers/marketplace";
import { acceptEstimate, declineEstimate, getEstimate, requestEstimateRevision, reviseEstimate, sendEstimate } from "./estimates.server";
import { listMessages, postMessage } from "./messages.server";
import { adminListWorkRequests, cancelWorkRequest, createWorkRequest, getWorkRequest, listMemberWorkRequests } from "./work-requests.server";

useTestDatabase();

let admin: User;
let client: User;
let provider: User;
let stranger: User;
let profileId: number;

beforeAll(async () => {
  admin = await createUser({ acctType: 2, roleId: 2 });
  client = await createUser({ name: "Cleo", lastName: "Client" });
  provider = await createUser({ name: "Pete", lastName: "Provider" });
  stranger = await createUser({ name: "Sam", lastName: "Stranger" });
  profileId = (await createProviderProfile(provider, "audio_engineer")).id;
});

async function notificationsOf(userId: number) {
  return db().select().from(notifications).where(eq(notifications.userId, userId));
}

describe("work requests", () => {
  it("a member asks a published provider profile; the provider is notified", async () => {
    const before = (await notificationsOf(provider.id)).length;
    const request = await createWorkRequest(client, profileId, requestInput());
    expect(request).toMatchObject({ clientId: client.id, providerOwnerId: provider.id, status: "pending", service: "mixing", budgetCents: 50_000 });
    const after = await notificationsOf(provider.id);
    expect(after.length).toBe(before + 1);
    expect(after.some((n) => n.type === "WorkRequestReceived" && n.data.resource_id === request.id)).toBe(true);
  });

  it("refuses bad input, an unpublished or unknown profile, hiring yourself and someone else's song", async () => {
    await refusedWith(createWorkRequest(client, profileId, requestInput({ description: "short" })), 400);
    await refusedWith(createWorkRequest(client, profileId, requestInput({ service: "dj" })), 400);
    await refusedWith(createWorkRequest(client, profileId, requestInput({ budgetCents: 0 })), 400);
    await refusedWith(createWorkRequest(client, profileId, requestInput({ budgetCents: 1.5 })), 400);
    await refusedWith(createWorkRequest(client, profileId, requestInput({ deadline: "2020-01-01" })), 400);
    await refusedWith(createWorkRequest(client, profileId, requestInput({ deadline: "2031-02-30" })), 400);
    await refusedWith(createWorkRequest(client, profileId, requestInput({ referenceLinks: ["javascript:alert(1)"] })), 400);
    await refusedWith(createWorkRequest(client, profileId, requestInput({ referenceLinks: Array(11).fill("https://example.com") })), 400);
    const draft = await createProviderProfile(stranger, "studio", "draft");
    await refusedWith(createWorkRequest(client, draft.id, requestInput()), 404);
    await refusedWith(createWorkRequest(client, 2_147_483_647, requestInput()), 404);
    await refusedWith(createWorkRequest(client, -1, requestInput()), 404);
    const self = await refusedWith(createWorkRequest(provider, profileId, requestInput()), 400);
    expect(self.message).toMatch(/yourself/);
    const theirs = await createOwnedSong(stranger);
    const song = await refusedWith(createWorkRequest(client, profileId, requestInput({ songId: theirs.id })), 400);
    expect(song.field).toBe("songId");
    const mine = await createOwnedSong(client);
    expect((await createWorkRequest(client, profileId, requestInput({ songId: mine.id }))).songId).toBe(mine.id);
  });

  it("is visible to its client, its provider's owner and admins; a stranger gets 404", async () => {
    const request = await createWorkRequest(client, profileId, requestInput());
    expect((await getWorkRequest(client, request.id)).role).toBe("client");
    expect((await getWorkRequest(provider, request.id)).role).toBe("provider");
    expect((await getWorkRequest(admin, request.id)).role).toBe("admin");
    const missing = await refusedWith(getWorkRequest(stranger, request.id), 404);
    const reallyMissing = await refusedWith(getWorkRequest(stranger, 2_000_000_000), 404);
    expect(missing.message).toBe(reallyMissing.message);
  });

  it("the client cancels (one conditional update); a stranger or the provider gets 404, a closed request 409", async () => {
    const request = await createWorkRequest(client, profileId, requestInput());
    await refusedWith(cancelWorkRequest(stranger, request.id), 404);
    await refusedWith(cancelWorkRequest(provider, request.id), 404);
    const estimate = await sendEstimate(provider, request.id, estimateInput());
    const canceled = await cancelWorkRequest(client, request.id);
    expect(canceled.status).toBe("canceled");
    const [e] = await db().select().from(estimates).where(eq(estimates.id, estimate.id));
    expect(e!.status).toBe("canceled");
    await refusedWith(cancelWorkRequest(client, request.id), 409);
    await refusedWith(acceptEstimate(client, estimate.id), 409);
  });
});

describe("estimates", () => {
  it("the provider sends one; only the provider's owner may, and only once while pending", async () => {
    const request = await createWorkRequest(client, profileId, requestInput());
    await refusedWith(sendEstimate(client, request.id, estimateInput()), 404);
    await refusedWith(sendEstimate(stranger, request.id, estimateInput()), 404);
    await refusedWith(sendEstimate(admin, request.id, estimateInput()), 404);
    const estimate = await sendEstimate(provider, request.id, estimateInput());
    expect(estimate).toMatchObject({ version: 1, totalCents: 50_001, status: "awaiting_approval", revisionsIncluded: 2 });
    expect((await getWorkRequest(client, request.id)).request.status).toBe("awaiting_approval");
    await refusedWith(sendEstimate(provider, request.id, estimateInput()), 409);
    expect(
      (await notificationsOf(client.id)).some((n) => n.type === "EstimateReceived" && n.data.resource_id === request.id && n.data.route_hash === "estimate-v1"),
    ).toBe(true);
  });

  it("refuses bad estimates: no items, bad amounts, days, revisions, points without a song, expiry", async () => {
    const request = await createWorkRequest(client, profileId, requestInput());
    await refusedWith(sendEstimate(provider, request.id, estimateInput({ lineItems: [] })), 400);
    await refusedWith(sendEstimate(provider, request.id, estimateInput({ lineItems: [{ description: "x", amountCents: -5 }] })), 400);
    await refusedWith(sendEstimate(provider, request.id, estimateInput({ lineItems: [{ description: "", amountCents: 5 }] })), 400);
    await refusedWith(sendEstimate(provider, request.id, estimateInput({ deliveryDays: 0 })), 400);
    await refusedWith(sendEstimate(provider, request.id, estimateInput({ revisionsIncluded: 21 })), 400);
    await refusedWith(sendEstimate(provider, request.id, estimateInput({ pointsBps: 5001 })), 400);
    await refusedWith(sendEstimate(provider, request.id, estimateInput({ expiresAt: inDays(-1) })), 400);
    await refusedWith(sendEstimate(provider, request.id, estimateInput({ expiresAt: inDays(91) })), 400);
    const points = await refusedWith(sendEstimate(provider, request.id, estimateInput({ pointsBps: 200 })), 400);
    expect(points.field).toBe("pointsBps");
    // Nothing was half-written by the refused points estimate.
    expect((await getWorkRequest(provider, request.id)).request.status).toBe("pending");
    expect((await getWorkRequest(provider, request.id)).estimates).toHaveLength(0);
  });

  it("revision requested, revised, declined: every version stays in the history", async () => {
    const request = await createWorkRequest(client, profileId, requestInput());
    const v1 = await sendEstimate(provider, request.id, estimateInput());
    await refusedWith(requestEstimateRevision(client, v1.id, ""), 400);
    await refusedWith(requestEstimateRevision(provider, v1.id, "Cheaper please"), 404);
    await refusedWith(requestEstimateRevision(stranger, v1.id, "Cheaper please"), 404);
    const asked = await requestEstimateRevision(client, v1.id, "Cheaper please");
    expect(asked).toMatchObject({ status: "revision_requested", responseNote: "Cheaper please" });
    expect((await getWorkRequest(client, request.id)).request.status).toBe("revision_requested");
    await refusedWith(acceptEstimate(client, v1.id), 409);
    await refusedWith(requestEstimateRevision(client, v1.id, "again"), 409);

    const v2 = await reviseEstimate(provider, request.id, estimateInput({ lineItems: [{ description: "Mix", amountCents: 30_000 }] }));
    expect(v2).toMatchObject({ version: 2, totalCents: 30_000, status: "awaiting_approval" });
    // The provider replaces a waiting version: the waiting one is canceled, the answered one keeps its answer.
    const v3 = await reviseEstimate(provider, request.id, estimateInput({ lineItems: [{ description: "Mix", amountCents: 29_000 }] }));
    expect(v3.version).toBe(3);
    const history = (await getWorkRequest(client, request.id)).estimates;
    expect(history.map((e) => [e.version, e.status])).toEqual([
      [3, "awaiting_approval"],
      [2, "canceled"],
      [1, "revision_requested"],
    ]);
    await refusedWith(acceptEstimate(client, v2.id), 409);
    const declined = await declineEstimate(client, v3.id, "Went with someone else");
    expect(declined.status).toBe("declined");
    expect((await getWorkRequest(client, request.id)).request.status).toBe("declined");
    await refusedWith(reviseEstimate(provider, request.id, estimateInput()), 409);
    await refusedWith(cancelWorkRequest(client, request.id), 409);
  });

  it("accepting opens the project in the same transaction, with the fee in force; expired estimates cannot be accepted", async () => {
    const request = await createWorkRequest(client, profileId, requestInput({ service: "mixing_and_mastering" }));
    const estimate = await sendEstimate(provider, request.id, estimateInput({ expiresAt: inDays(2) }));
    await refusedWith(acceptEstimate(client, estimate.id, inDays(3)), 409);
    await refusedWith(acceptEstimate(provider, estimate.id), 404);
    await refusedWith(acceptEstimate(stranger, estimate.id), 404);
    await refusedWith(acceptEstimate(admin, estimate.id), 404);
    const { estimate: accepted, project } = await acceptEstimate(client, estimate.id);
    expect(accepted.status).toBe("accepted");
    expect(project).toMatchObject({
      workRequestId: request.id,
      estimateId: estimate.id,
      amountCents: 50_001,
      feeBps: 1000,
      stage: "in_mixing_and_mastering",
      status: "awaiting_funding",
      fundingStatus: "unfunded",
      revisionsIncluded: 2,
      revisionsUsed: 0,
    });
    const detail = await getWorkRequest(provider, request.id);
    expect(detail.request.status).toBe("accepted");
    expect(detail.project?.id).toBe(project.id);
    await refusedWith(acceptEstimate(client, estimate.id), 409);
    await refusedWith(declineEstimate(client, estimate.id), 409);
    await refusedWith(cancelWorkRequest(client, request.id), 409);
    expect((await getEstimate(provider, estimate.id)).estimate.id).toBe(estimate.id);
    await refusedWith(getEstimate(stranger, estimate.id), 404);
  });

  it("an expired estimate is refused with its date, and the provider can revise it", async () => {
    const request = await createWorkRequest(client, profileId, requestInput());
    const estimate = await sendEstimate(provider, request.id, estimateInput({ expiresAt: inDays(1) }));
    const error = await refusedWith(acceptEstimate(client, estimate.id, inDays(2)), 409);
    expect(error.message).toMatch(/expired/);
    const revised = await reviseEstimate(provider, request.id, estimateInput());
    expect(revised.version).toBe(2);
  });
});

describe("messages", () => {
  it("the thread is plain text for its participants; others get 404; hostile input is stored as written", async () => {
    const request = await createWorkRequest(client, profileId, requestInput());
    const hostile = `<script>alert("x")</script> <img src=x onerror=alert(1)> https://example.com/ref`;
    const posted = await postMessage(client, { workRequestId: request.id }, hostile);
    expect(posted.body).toBe(hostile);
    await postMessage(provider, { workRequestId: request.id }, "  Sounds good\u0000  ");
    await postMessage(admin, { workRequestId: request.id }, "Admin here");
    await refusedWith(postMessage(stranger, { workRequestId: request.id }, "hi"), 404);
    await refusedWith(postMessage(client, { workRequestId: request.id }, "   "), 400);
    await refusedWith(postMessage(client, { workRequestId: request.id }, "x".repeat(5001)), 400);
    await refusedWith(listMessages(stranger, { workRequestId: request.id }), 404);
    const thread = await listMessages(provider, { workRequestId: request.id });
    expect(thread.map((m) => m.body)).toEqual([hostile, "Sounds good", "Admin here"]);
    expect((await notificationsOf(provider.id)).some((n) => n.type === "MarketplaceMessage")).toBe(true);
  });
});

describe("lists", () => {
  it("members see theirs as client and as provider; admins filter by status, service and search; a bounded number of statements", async () => {
    const other = await createUser({ name: "Olga", lastName: "Other" });
    const otherProfile = await createProviderProfile(other, "studio");
    for (let i = 0; i < 3; i++)
      await createWorkRequest(client, otherProfile.id, requestInput({ service: "recording", description: `Record session number ${i} please` }));
    const asClient = await listMemberWorkRequests(client, "client");
    expect(asClient.total).toBeGreaterThanOrEqual(3);
    expect(asClient.rows.every((r) => r.clientId === client.id)).toBe(true);
    const asProvider = await listMemberWorkRequests(other, "provider");
    expect(asProvider.total).toBe(3);
    expect(asProvider.rows[0]!.providerName).toBe(otherProfile.name);
    expect((await listMemberWorkRequests(stranger, "client")).total).toBe(0);
    // a status filter (an unknown status is ignored)
    expect((await listMemberWorkRequests(other, "provider", 1, "pending")).total).toBe(3);
    expect((await listMemberWorkRequests(other, "provider", 1, "accepted")).total).toBe(0);
    expect((await listMemberWorkRequests(other, "provider", 1, "nonsense")).total).toBe(3);
    // newest first
    const times = asClient.rows.map((r) => r.createdAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    await refusedWith(adminListWorkRequests(client, {}), 404);
    const recording = await adminListWorkRequests(admin, { service: "recording" });
    expect(recording.total).toBe(3);
    const searched = await adminListWorkRequests(admin, { q: "RECORD SESSION" });
    expect(searched.total).toBe(3);
    const byClient = await adminListWorkRequests(admin, { q: "cleo client" });
    expect(byClient.rows.length).toBeGreaterThanOrEqual(3);
    expect(byClient.rows.every((r) => r.clientId === client.id)).toBe(true);
    const byName = await adminListWorkRequests(admin, { q: otherProfile.name.toUpperCase() });
    expect(byName.total).toBe(3);
    const declined = await adminListWorkRequests(admin, { status: "declined" });
    expect(declined.rows.every((r) => r.status === "declined")).toBe(true);
    expect((await adminListWorkRequests(admin, { q: "100%_" })).total).toBe(0);

    const counted = await countQueries(() => listMemberWorkRequests(client, "client", 1));
    expect(counted.count).toBe(2);
    const adminCounted = await countQueries(() => adminListWorkRequests(admin, { status: "pending", service: "mixing", q: "cleo", page: 2 }));
    expect(adminCounted.count).toBe(2);
    const detail = await countQueries(() => getWorkRequest(client, asClient.rows[0]!.id));
    expect(detail.count).toBe(3);
  });
});

describe("schema guards", () => {
  it("a client can never be their own provider, even bypassing the service", async () => {
    const error = await db()
      .insert(workRequests)
      .values({
        clientId: provider.id,
        providerProfileId: profileId,
        providerOwnerId: provider.id,
        service: "mixing",
        description: "x",
        budgetCents: 1,
        deadline: isoIn(1),
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).not.toBeNull();
    expect((await db().execute(sql`select 1`)) !== null).toBe(true);
  });
});
