import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { postProductionJobs, users, type User } from "~/db/schema";
import { createJob, inviteUrl } from "~/modules/post-production/job-creation.server";
import { acceptJob } from "~/modules/post-production/job-transitions.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember, uniqueEmail } from "../helpers/factories";
import { createOwnedSong } from "../helpers/marketplace";
import { confirmedSessionCookieFor, sessionCookieFor } from "../helpers/requests";
import { creditEarnings } from "../helpers/ledger";

useTestDatabase();

/**
 * The post-production pages through the real request handler, as a browser without JavaScript posts them:
 * guards (a third member gets 404 on the pages, the actions and the downloads), the create form's errors
 * beside its fields with the values kept, the signed invitation page, the menu entry, and what each page costs.
 */
describe("post-production pages", () => {
  let server: AppServer;
  let owner: User;
  let engineer: User;
  let third: User;
  let admin: User;
  let cookies: { owner: string; engineer: string; third: string; admin: string };
  let jobId: number;
  let songId: number;

  beforeAll(async () => {
    owner = await createSignedMember("Olga");
    engineer = await createSignedMember("Enzo");
    third = await createSignedMember("Theo");
    admin = await createSignedMember("Ada");
    await db().update(users).set({ acctType: 2, roleId: 2 }).where(eq(users.id, admin.id));
    cookies = {
      owner: await sessionCookieFor(owner.id),
      engineer: await sessionCookieFor(engineer.id),
      third: await sessionCookieFor(third.id),
      admin: await sessionCookieFor(admin.id),
    };
    const song = await createOwnedSong(owner, "Harbour Lights");
    songId = song.id;
    jobId = (await createJob(owner, { songId, service: "mixing", amount: "150.00", engineerEmail: engineer.email })).job.id;
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  const post = (path: string, fields: Record<string, string>, cookie: string) => server.postForm(path, fields, cookie);
  const get = (path: string, cookie: string) => server.getAs(path, cookie);

  it("gives a third member 404 on the job's pages, its actions and its downloads, as for a missing id", async () => {
    expect((await get(`/member/${third.id}/post-production-job/${jobId}`, cookies.third)).status).toBe(404);
    expect((await get(`/member/${third.id}/post-production-job/999999`, cookies.third)).status).toBe(404);
    expect((await get(`/member/${owner.id}/post-production-job/${jobId}`, cookies.third)).status).toBe(404);
    for (const intent of ["accept", "decline", "advance", "accept-audio"]) {
      expect((await post(`/member/${third.id}/post-production-job/${jobId}`, { intent }, cookies.third)).status).toBe(404);
    }
    expect((await post(`/member/${third.id}/post-production-job/${jobId}`, { intent: "cancel", reason: "Not mine at all." }, cookies.third)).status).toBe(404);
    expect((await get(`/storage/post-production/source/${jobId}`, cookies.third)).status).toBe(404);
    expect((await get(`/storage/post-production/1`, cookies.third)).status).toBe(404);
    expect((await get(`/admin/post-production-jobs`, cookies.third)).status).toBe(302);
    // The parties see it.
    expect((await get(`/member/${owner.id}/post-production-job/${jobId}`, cookies.owner)).status).toBe(200);
    const page = await get(`/member/${engineer.id}/post-production-job/${jobId}`, cookies.engineer);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Accept the job");
  });

  it("refuses bad input beside the fields with the values kept, and someone else's song like a missing one", async () => {
    const path = `/member/${owner.id}/post-production-jobs`;
    const bad = await post(path, { songId: "", service: "recording", engineerEmail: "nobody-at-all", notes: "Loud & proud <b>" }, cookies.owner);
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Choose one of your songs.");
    expect(html).toContain("Choose mixing, mastering, or mixing and mastering.");
    expect(html).toContain("Enter the engineer&#x27;s email address.");
    expect(html).toContain('value="nobody-at-all"');
    expect(html).toContain("Loud &amp; proud &lt;b&gt;");
    expect(html).toMatch(/aria-invalid="true"/);
    const theirs = await createOwnedSong(third, "Not Yours");
    const foreign = await post(path, { songId: String(theirs.id), service: "mixing", amount: "150.00", engineerEmail: engineer.email }, cookies.owner);
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain("Choose one of your songs.");
    // Another member's list cannot be posted to; an administrator does not create jobs for members.
    expect((await post(path, { songId: String(songId), service: "mixing", engineerEmail: engineer.email }, cookies.third)).status).toBe(404);
    expect((await post(path, { songId: String(songId), service: "mixing", engineerEmail: engineer.email }, cookies.admin)).status).toBe(404);
    expect(
      await (await post(path, { songId: String(songId), service: "mastering", amount: "free", engineerEmail: engineer.email }, cookies.owner)).text(),
    ).toContain("Enter the price in dollars and cents, such as 150.00");
    const made = await post(path, { songId: String(songId), service: "mastering", amount: "150.00", engineerEmail: engineer.email }, cookies.owner);
    expect(made.status).toBe(302);
    expect(made.headers.get("location")).toMatch(new RegExp(`^/member/${owner.id}/post-production-job/\\d+\\?done=`));
  });

  it("a job's action in the wrong state answers 409 beside the form", async () => {
    const path = `/member/${owner.id}/post-production-job/${jobId}`;
    const early = await post(path, { intent: "accept-audio" }, cookies.owner);
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("This job is pending: it cannot be accepted as the song&#x27;s audio.");
    const wrongActor = await post(path, { intent: "accept" }, cookies.owner);
    expect(wrongActor.status).toBe(404);
    const short = await post(`/member/${engineer.id}/post-production-job/${jobId}`, { intent: "cancel", reason: "x" }, cookies.engineer);
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Give a reason (3 to 500 characters).");
  });

  it("the owner pays an accepted job from their balance: a fresh confirmation first, a short balance refused above the form", async () => {
    const song = await createOwnedSong(owner, "Balance Song");
    const { job } = await createJob(owner, { songId: song.id, service: "mastering", amount: "40.00", engineerEmail: engineer.email });
    await acceptJob(engineer, job.id);
    const path = `/member/${owner.id}/post-production-job/${job.id}`;
    // Without a confirmation in the last 10 minutes: the "Confirm it is you" form, and nothing moves.
    const unconfirmed = await post(path, { intent: "balance" }, cookies.owner);
    expect(unconfirmed.status).toBe(403);
    expect(await unconfirmed.text()).toContain("Confirm it is you");
    const confirmed = await confirmedSessionCookieFor(owner.id);
    const short = await post(path, { intent: "balance" }, confirmed);
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Your available balance is $0.00: not enough to pay $40.00.");
    // The engineer cannot pay it, nor a third member.
    expect(
      (await post(`/member/${engineer.id}/post-production-job/${job.id}`, { intent: "balance" }, await confirmedSessionCookieFor(engineer.id))).status,
    ).toBe(404);
    await creditEarnings(owner.id, 40_000_000n);
    const paid = await post(path, { intent: "balance" }, confirmed);
    expect(paid.status).toBe(302);
    const [row] = await db().select().from(postProductionJobs).where(eq(postProductionJobs.id, job.id));
    expect(row).toMatchObject({ status: "in_progress", fundingStatus: "funded", fundingMethod: "balance", fundedMicros: 40_000_000n });
  });

  it("shows the menu entry once the member has a job", async () => {
    const newcomer = await createSignedMember("Nina");
    const cookie = await sessionCookieFor(newcomer.id);
    const before = await (await get(`/member/${newcomer.id}/dashboard`, cookie)).text();
    expect(before).not.toContain(`/member/${newcomer.id}/post-production-jobs"`);
    const song = await createOwnedSong(newcomer);
    await createJob(newcomer, { songId: song.id, service: "mixing", amount: "150.00", engineerEmail: engineer.email });
    const after = await (await get(`/member/${newcomer.id}/dashboard`, cookie)).text();
    expect(after).toContain(`/member/${newcomer.id}/post-production-jobs"`);
  });

  it("the signed invitation: 'Invalid signature.' when tampered or expired; a visitor creates a verified account and lands on the job", async () => {
    const email = uniqueEmail("mixer");
    const { job, inviteUrl: url } = await createJob(owner, { songId, service: "mixing_and_mastering", amount: "150.00", engineerEmail: email });
    const path = new URL(url!).pathname + new URL(url!).search;
    const tampered = await server.statementsOf(path.replace(`job=${job.id}`, `job=${jobId}`));
    expect(tampered.status).toBe(403);
    expect(tampered.count).toBe(0);
    const expired = new URL(inviteUrl(job.id, -60));
    const old = await fetch(`${server.url}${expired.pathname}${expired.search}`);
    expect(old.status).toBe(403);
    expect(await old.text()).toContain("Invalid signature.");
    const page = await fetch(`${server.url}${path}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Create account and open the job");
    // Someone logged in with another address is told whom it was sent to, and offered a way out.
    const html = await (await get(path, cookies.owner)).text();
    const other = html.replace(/<!-- -->/g, "");
    expect(other).toContain(`This job was sent to ${email}. Log in with that address to answer it.`);
    expect(other).toContain("Log out and use another account");
    const created = await fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "register",
        name: "Mo",
        lastName: "Mixer",
        email,
        password: "a long pass phrase 42",
        passwordConfirmation: "a long pass phrase 42",
        terms: "on",
      }),
    });
    expect(created.status).toBe(302);
    const [bound] = await db().select().from(postProductionJobs).where(eq(postProductionJobs.id, job.id));
    expect(bound!.engineerId).not.toBeNull();
    expect(created.headers.get("location")).toBe(`/member/${bound!.engineerId}/post-production-job/${job.id}`);
    // The link is used up: the next visitor is told so.
    const again = await fetch(`${server.url}${path}`);
    expect(again.status).toBe(410);
  });

  it("costs what it shows", async () => {
    await acceptJob(engineer, jobId).catch(() => undefined);
    const warm = async (path: string, cookie: string) => {
      await server.statementsOf(path, { headers: { Cookie: cookie } });
      return server.statementsOf(path, { headers: { Cookie: cookie } });
    };
    // session (1), layout (3), the list and its count (2), the songs for the form (1)
    const list = await warm(`/member/${owner.id}/post-production-jobs?status=pending`, cookies.owner);
    expect(list.status).toBe(200);
    expect(list.count).toBeLessThanOrEqual(7);
    // session (1), layout (3), the job and its deliveries (2), the owner's balance while the job awaits their payment (1)
    const job = await warm(`/member/${owner.id}/post-production-job/${jobId}`, cookies.owner);
    expect(job.status).toBe(200);
    expect(await (await get(`/member/${owner.id}/post-production-job/${jobId}`, cookies.owner)).text()).toContain("Fund the job");
    expect(job.count).toBeLessThanOrEqual(7);
    // session (1), bell, What's new (2), the list and its count (2)
    const adminList = await warm("/admin/post-production-jobs?q=harbour&status=in_progress&service=mixing", cookies.admin);
    expect(adminList.status).toBe(200);
    expect(adminList.count).toBeLessThanOrEqual(5);
    // session (1), bell, What's new (2), the job and its deliveries (2), two-factor on? (1)
    const adminJob = await warm(`/admin/post-production-job/${jobId}`, cookies.admin);
    expect(adminJob.status).toBe(200);
    expect(adminJob.count).toBeLessThanOrEqual(6);
  });
});

describe("post-production admin pages", () => {
  let server: AppServer;
  let owner: User;
  let engineer: User;
  let admin: User;
  let cookies: { owner: string; admin: string };

  beforeAll(async () => {
    owner = await createSignedMember("Ola");
    engineer = await createSignedMember("Eno");
    admin = await createSignedMember("Adi");
    await db().update(users).set({ acctType: 2, roleId: 2 }).where(eq(users.id, admin.id));
    cookies = { owner: await sessionCookieFor(owner.id), admin: await sessionCookieFor(admin.id) };
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  it("lists and filters every job, shows one read-only, and cancels it with a reason (400 beside the field without one)", async () => {
    const song = await createOwnedSong(owner, "Lighthouse Keeper");
    const { job } = await createJob(owner, { songId: song.id, service: "mastering", amount: "150.00", engineerEmail: engineer.email });
    const list = await server.getAs("/admin/post-production-jobs?q=lighthouse&service=mastering&status=pending", cookies.admin);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain(`/admin/post-production-job/${job.id}`);
    const none = await server.getAs("/admin/post-production-jobs?q=lighthouse&service=mixing", cookies.admin);
    expect(await none.text()).toContain("No jobs match these filters.");
    const page = await server.getAs(`/admin/post-production-job/${job.id}`, cookies.admin);
    const html = await page.text();
    expect(html).toContain("Cancel the job");
    expect(html).not.toContain("Accept the job");
    expect((await server.getAs(`/admin/post-production-job/${job.id}`, cookies.owner)).status).toBe(302);
    expect(
      (await server.postForm(`/admin/post-production-job/${job.id}`, { intent: "cancel", reason: "Dispute settled by support." }, cookies.owner)).status,
    ).toBe(302);
    const short = await server.postForm(`/admin/post-production-job/${job.id}`, { intent: "cancel", reason: "x" }, cookies.admin);
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Give a reason (3 to 500 characters).");
    const done = await server.postForm(`/admin/post-production-job/${job.id}`, { intent: "cancel", reason: "Dispute settled by support." }, cookies.admin);
    expect(done.status).toBe(302);
    const [row] = await db().select().from(postProductionJobs).where(eq(postProductionJobs.id, job.id));
    expect(row).toMatchObject({ status: "canceled", cancelReason: "Dispute settled by support.", canceledBy: admin.id });
    expect((await server.postForm(`/admin/post-production-job/999999`, { intent: "cancel", reason: "Nothing here." }, cookies.admin)).status).toBe(404);
  });

  it("confirming a bank transfer needs two-factor on, and changes nothing without it", async () => {
    const song = await createOwnedSong(owner, "Wire Song");
    const { job } = await createJob(owner, { songId: song.id, service: "mastering", amount: "80.00", engineerEmail: engineer.email });
    await acceptJob(engineer, job.id);
    const page = await (await server.getAs(`/admin/post-production-job/${job.id}`, cookies.admin)).text();
    expect(page).toContain("Confirm funding");
    expect(page).toContain("BACKLINE-JOB-" + job.id);
    const refused = await server.postForm(`/admin/post-production-job/${job.id}`, { intent: "fund", reference: "WIRE-123" }, cookies.admin);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("two-factor");
    const [row] = await db().select().from(postProductionJobs).where(eq(postProductionJobs.id, job.id));
    expect(row).toMatchObject({ status: "awaiting_funding", fundingStatus: "unfunded" });
  });
});
