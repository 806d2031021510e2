import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { legalDocuments } from "~/db/schema";
import { pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import * as adminSummary from "~/routes/api.admin.dashboard.system-profiles-summary";
import * as config from "~/routes/api.config";
import * as dashboard from "~/routes/api.members.$id.dashboard.$section";
import * as loggedUser from "~/routes/api.members.profile.logged-user.$id";
import * as notifications from "~/routes/api.members.$id.notifications";
import * as deleteNotification from "~/routes/api.members.$id.notifications.$notificationId";
import * as versionView from "~/routes/api.versions.$id.view";
import * as versionsLatest from "~/routes/api.versions.latest";
import { createSignedMember, createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { contextFor, requestAs, sessionCookieFor } from "../../../tests/helpers/requests";
import { LEGAL_AGREEMENT_REQUIRED, requireApiLoggedUser } from "./api.server";

useTestDatabase();

type Handler = (args: { request: Request; params: Record<string, string>; context: unknown }) => unknown;

/** Runs a route's loader (or action) as React Router does; a thrown Response is the answer too. */
async function call(handler: Handler, request: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    return (await handler({ request, params, context: await contextFor(request) })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function expectJsonError(response: Response, status: number, message: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(await response.json()).toEqual({ message, errors: message });
}

/** A new version of a required document: everyone who agreed to the last one must agree again. */
async function publishNewVersion(slug: string) {
  const [doc] = await db()
    .insert(legalDocuments)
    .values({ name: slug, slug, content: "<p>Terms</p>", published: true, required: true, version: 1 })
    .onConflictDoNothing()
    .returning();
  if (doc) return doc;
  const [updated] = await db().update(legalDocuments).set({ version: 2 }).where(eq(legalDocuments.slug, slug)).returning();
  return updated!;
}

describe("the API's legal-agreement gate", () => {
  let member: Awaited<ReturnType<typeof createSignedMember>>;
  let cookie: string;

  beforeAll(async () => {
    member = await createSignedMember("Gated");
    cookie = await sessionCookieFor(member.id);
  });

  const endpoints = () => [
    { name: "config", run: () => call(config.loader as Handler, requestAs(cookie, "/api/config")) },
    {
      name: "notifications",
      run: () =>
        call(notifications.loader as Handler, requestAs(cookie, `/api/members/${member.id}/notifications`), {
          id: String(member.id),
        }),
    },
    {
      name: "logged-user",
      run: () =>
        call(loggedUser.loader as Handler, requestAs(cookie, `/api/members/profile/logged-user/${member.id}`), {
          id: String(member.id),
        }),
    },
  ];

  it("answers 200 while the member has agreed to every required document", async () => {
    for (const endpoint of endpoints()) expect((await endpoint.run()).status, endpoint.name).toBe(200);
  });

  it("answers 403 JSON with the message after a new required version, and 200 again once agreed", async () => {
    const terms = await publishNewVersion("api-gate-terms");
    expect((await pendingDocumentsFor(member.id)).map((d) => d.id)).toEqual([terms.id]);

    for (const endpoint of endpoints()) await expectJsonError(await endpoint.run(), 403, LEGAL_AGREEMENT_REQUIRED);

    await signDocuments({ userId: member.id, documentIds: [terms.id], ip: "127.0.0.1", userAgent: "test" });
    for (const endpoint of endpoints()) expect((await endpoint.run()).status, endpoint.name).toBe(200);
    const body = await endpoints()[2]!
      .run()
      .then((r) => r.json());
    expect(body.data).toMatchObject({ id: member.id, agreed_to_all_documents: true });
  });

  it("gates every API route that needs a user, before its own checks (admin, member id, method)", async () => {
    const terms = await publishNewVersion("api-gate-terms");
    expect(terms.version).toBe(2);
    const admin = await createUser({ acctType: 2, roleId: 1 });
    const adminCookie = await sessionCookieFor(admin.id);
    const post = (path: string, c: string) => new Request(`http://localhost:3999${path}`, { method: "POST", headers: { Cookie: c } });
    const del = (path: string) => new Request(`http://localhost:3999${path}`, { method: "DELETE", headers: { Cookie: cookie } });
    const own = String(member.id);
    const responses = [
      await call(dashboard.loader as Handler, requestAs(cookie, `/api/members/${own}/dashboard/stats`), { id: own, section: "stats" }),
      // Someone else's id would be 404; the gate answers first.
      await call(dashboard.loader as Handler, requestAs(cookie, `/api/members/1/dashboard/stats`), { id: "1", section: "stats" }),
      await call(deleteNotification.action as Handler, del(`/api/members/${own}/notifications/all`), { id: own, notificationId: "all" }),
      await call(versionsLatest.loader as Handler, requestAs(cookie, "/api/versions/latest")),
      await call(versionView.action as Handler, post("/api/versions/1/view", cookie), { id: "1" }),
      // An admin who has not agreed either (rule 2 before rule 3).
      await call(adminSummary.loader as Handler, requestAs(adminCookie, "/api/admin/dashboard/system-profiles-summary")),
    ];
    for (const response of responses) await expectJsonError(response, 403, LEGAL_AGREEMENT_REQUIRED);
  });

  it("answers 401 JSON without a session, as before", async () => {
    await expectJsonError(await call(config.loader as Handler, requestAs(null, "/api/config")), 401, "Unauthenticated.");
  });

  it("reads the user and the agreement in one statement, which the guard and the endpoint share", async () => {
    const agreed = await createSignedMember("Counted");
    const agreedCookie = await sessionCookieFor(agreed.id);
    const request = requestAs(agreedCookie, `/api/members/profile/logged-user/${agreed.id}`);
    const { result, sql } = await countQueries(async () => {
      const context = await contextFor(request);
      requireApiLoggedUser(context);
      return (await (loggedUser.loader as Handler)({ request, params: { id: String(agreed.id) }, context })) as Response;
    });
    expect(result.status).toBe(200);
    expect(sql).toHaveLength(1);
    expect(sql[0]).toContain('from "sessions"');
    expect(sql[0]).toContain('"legal_documents"');
  });
});
