import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { artistMembers, profiles, releases, type ProfileStatus, type ProfileType } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { loadDashboardProfiles } from "~/modules/members/member-area.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { openProject, requestInput } from "../../../tests/helpers/marketplace";
import { createWorkRequest } from "~/modules/marketplace/work-requests.server";
import { memberDashboardProjects, memberDashboardStats, memberDashboardWorkRequests } from "./member-dashboard.server";
import { systemFinancialSummary, systemProfilesSummary } from "./admin-dashboard.server";

useTestDatabase();

describe("member dashboard stats", () => {
  it("counts the documents this member agreed to, not anyone else's", async () => {
    await seedDemoData();
    const member = (await findUserByEmail("member@example.com"))!;
    const newcomer = (await findUserByEmail("new@example.com"))!;
    expect(await memberDashboardStats(member.id)).toMatchObject({
      documents_agreed: 2,
      documents_required: 2,
      email_verified: true,
      has_avatar: false,
      balance_cents: 0,
      currency: "USD",
      // Late Trains and Northbound are in distribution; Winter Platforms is a draft.
      releases_submitted: 2,
    });
    expect(await memberDashboardStats(newcomer.id)).toMatchObject({ documents_agreed: 0, documents_required: 2, releases_submitted: 0 });
    expect(await memberDashboardStats(987654)).toBeNull();
  });
});

describe("the dashboard's projects and work requests", () => {
  it("counts and lists the open ones on either side, and nobody else's", async () => {
    const client = await createUser();
    const provider = await createUser();
    const stranger = await createUser();
    const { project, profile } = await openProject(client, provider);
    // A second request, still waiting for an estimate.
    const pending = await createWorkRequest(client, profile.id, requestInput({ service: "mastering" }));

    // The cards count what the dashboard lists: every project and request, and how many of them are open
    // (the accepted request that became the project is no longer open).
    expect(await memberDashboardStats(client.id)).toMatchObject({ projects: 1, projects_open: 1, work_requests: 2, work_requests_open: 1 });
    expect(await memberDashboardStats(provider.id)).toMatchObject({ projects: 1, projects_open: 1, work_requests: 2, work_requests_open: 1 });
    expect(await memberDashboardStats(stranger.id)).toMatchObject({ projects: 0, projects_open: 0, work_requests: 0, work_requests_open: 0 });

    const clientProjects = (await memberDashboardProjects(client.id)).data;
    expect(clientProjects).toEqual([
      expect.objectContaining({
        id: project.id,
        role: "client",
        counterpart: profile.name,
        service: "mixing",
        stage: "in_mixing",
        funding_status: "unfunded",
        amount_cents: 50_001,
      }),
    ]);
    const providerProjects = (await memberDashboardProjects(provider.id)).data;
    expect(providerProjects).toEqual([expect.objectContaining({ id: project.id, role: "provider", counterpart: `${client.name} ${client.lastName}`.trim() })]);

    const requests = (await memberDashboardWorkRequests(provider.id)).data;
    // The open request first, then the accepted one.
    expect(requests.map((r) => [r.id, r.status, r.role])).toEqual([
      [pending.id, "pending", "provider"],
      [project.workRequestId, "accepted", "provider"],
    ]);
    expect((await memberDashboardProjects(stranger.id)).data).toEqual([]);
    expect((await memberDashboardWorkRequests(stranger.id)).data).toEqual([]);
  });
});

describe("system financial summary", () => {
  it("keeps clients' marketplace payments out of the imported statements, and shows what escrow holds", async () => {
    const before = await systemFinancialSummary();
    const admin = await createUser({ acctType: 2, roleId: 1 });
    // A $500.01 project, funded by the admin's confirmation: receipts (marketplace) -> the project's escrow.
    await openProject(await createUser(), await createUser(), { admin });
    const after = await systemFinancialSummary();
    expect(after.imported).toBe(before.imported);
    expect(after.income_cents).toBe(before.income_cents);
    expect(after.marketplace_received_cents - before.marketplace_received_cents).toBe(50_001);
    expect(after.escrow_cents - before.escrow_cents).toBe(50_001);
  });
});

describe("system profiles summary", () => {
  it("counts accounts by type, status, role and month", async () => {
    const before = await systemProfilesSummary();
    await createUser({ emailVerifiedAt: null });
    await createUser({ activatedAt: null, emailVerifiedAt: null });
    await createUser({ suspendedAt: new Date(), roleId: 3 });
    await createUser({ acctType: 2, roleId: 2 });
    const after = await systemProfilesSummary();
    expect(after.members - before.members).toBe(3);
    expect(after.admins - before.admins).toBe(1);
    expect(after.unverified - before.unverified).toBe(1);
    expect(after.pending_activation - before.pending_activation).toBe(1);
    expect(after.suspended - before.suspended).toBe(1);
    const role = (s: typeof after, id: number) => s.by_role.find((r) => r.role_id === id)!.count;
    expect(role(after, 3) - role(before, 3)).toBe(1);
    expect(role(after, 2) - role(before, 2)).toBe(1);
    expect(after.signups_by_month).toHaveLength(12);
    expect(after.signups_by_month.at(-1)!.month).toBe(new Date().toISOString().slice(0, 7));
    expect(after.signups_by_month.at(-1)!.count - before.signups_by_month.at(-1)!.count).toBe(4);
  });
});

describe("profiles in the member-area data and the summaries", () => {
  async function addProfile(ownerId: number, type: ProfileType, name: string, status: ProfileStatus = "draft") {
    const [row] = await db()
      .insert(profiles)
      .values({ ownerId, type, name, username: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${ownerId}`, status })
      .returning();
    return row!;
  }

  it("lists the artists a member owns or plays in, and their provider profiles", async () => {
    const owner = await createUser();
    const bandmate = await createUser();
    const stranger = await createUser();
    const band = await addProfile(owner.id, "artist", "Zebra Band");
    const solo = await addProfile(owner.id, "artist", "Alpha Solo");
    await db()
      .insert(artistMembers)
      .values([
        { artistId: band.id, userId: owner.id, role: "owner", canEdit: true },
        { artistId: solo.id, userId: owner.id, role: "owner", canEdit: true },
        { artistId: band.id, userId: bandmate.id, role: "member" },
      ]);
    const musician = await addProfile(owner.id, "musician", "Owner Plays");
    const studio = await addProfile(owner.id, "studio", "Owner Studio", "published");
    await addProfile(stranger.id, "music_producer", "Not Theirs");

    expect(await loadDashboardProfiles(owner.id)).toEqual({
      owned_affiliate: null,
      artists: [
        { id: solo.id, name: "Alpha Solo", username: solo.username, can_edit: true },
        { id: band.id, name: "Zebra Band", username: band.username, can_edit: true },
      ],
      musician: { id: musician.id },
      audio_engineer: null,
      studio: { id: studio.id },
      music_producer: null,
    });
    const forBandmate = await loadDashboardProfiles(bandmate.id);
    expect(forBandmate.artists).toEqual([{ id: band.id, name: "Zebra Band", username: band.username, can_edit: false }]);
    expect(forBandmate.musician).toBeNull();
    expect(await memberDashboardStats(owner.id)).toMatchObject({ artists: 2, provider_profiles: 2 });
  });

  it("counts artists, provider profiles and those pending approval for the admin summary", async () => {
    const before = await systemProfilesSummary();
    const owner = await createUser();
    await addProfile(owner.id, "artist", "Counted Artist", "pending_approval");
    await addProfile(owner.id, "audio_engineer", "Counted Engineer", "published");
    const after = await systemProfilesSummary();
    expect(after.artists - before.artists).toBe(1);
    expect(after.provider_profiles - before.provider_profiles).toBe(1);
    expect(after.profiles_pending_approval - before.profiles_pending_approval).toBe(1);
  });

  it("counts the releases waiting for review, and no other", async () => {
    const before = await systemProfilesSummary();
    const owner = await createUser();
    const artist = await addProfile(owner.id, "artist", "Review Queue Band", "published");
    await db()
      .insert(releases)
      .values([
        { artistId: artist.id, title: "Waiting", slug: "waiting", type: "single", status: "pending_approval" },
        { artistId: artist.id, title: "Still A Draft", slug: "still-a-draft", type: "single", status: "draft" },
        { artistId: artist.id, title: "Out There", slug: "out-there", type: "single", status: "in_distribution" },
      ]);
    const after = await systemProfilesSummary();
    expect(after.releases_pending_review - before.releases_pending_review).toBe(1);
  });
});
