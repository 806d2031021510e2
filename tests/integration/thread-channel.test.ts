import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { users, type User } from "~/db/schema";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember } from "../helpers/factories";
import { createProviderProfile, requestInput } from "../helpers/marketplace";
import { sessionCookieFor } from "../helpers/requests";
import { createWorkRequest } from "~/modules/marketplace/work-requests.server";

useTestDatabase();

/**
 * The private realtime channel of a marketplace message thread: POST /broadcasting/auth signs it for
 * the thread's client, the provider's owner and administrators, and refuses everyone else (403) as it refuses
 * another member's notification channel.
 */
describe("a work request thread's private channel", () => {
  let server: AppServer;
  let people: Record<"client" | "provider" | "stranger" | "admin", User>;
  let requestId = 0;

  beforeAll(async () => {
    const [client, provider, stranger, admin] = await Promise.all(["Cleo", "Pax", "Sid", "Ada"].map((name) => createSignedMember(name)));
    const [promoted] = await db().update(users).set({ acctType: 2, roleId: 2 }).where(eq(users.id, admin!.id)).returning();
    people = { client: client!, provider: provider!, stranger: stranger!, admin: promoted! };
    const profile = await createProviderProfile(people.provider);
    requestId = (await createWorkRequest(people.client, profile.id, requestInput())).id;
    server = await startAppServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  const authorize = async (who: keyof typeof people, channel: string) =>
    fetch(`${server.url}/broadcasting/auth`, {
      method: "POST",
      headers: {
        cookie: await sessionCookieFor(people[who].id),
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
        Origin: server.url,
      },
      body: new URLSearchParams({ socket_id: "1234.5678", channel_name: channel }),
    });

  it("signs the channel for the two parties and administrators", async () => {
    for (const who of ["client", "provider", "admin"] as const) {
      const response = await authorize(who, `private-marketplace-thread.${requestId}`);
      expect(response.status, who).toBe(200);
      expect((await response.json()).auth).toMatch(/^[^:]+:[0-9a-f]{64}$/);
    }
  });

  it("refuses a stranger, a missing thread and a malformed name", async () => {
    for (const channel of [`private-marketplace-thread.${requestId}`, `private-marketplace-thread.${requestId + 1000}`]) {
      expect((await authorize("stranger", channel)).status).toBe(403);
    }
    for (const channel of [
      `private-marketplace-thread.0${requestId}`,
      `private-marketplace-thread.${requestId}x`,
      "private-marketplace-thread.",
      "private-marketplace-thread.99999999999",
    ]) {
      expect((await authorize("client", channel)).status, channel).toBe(403);
    }
  });
});
