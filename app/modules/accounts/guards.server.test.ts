import { describe, expect, it } from "vitest";
import { createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { contextFor, requestAs, sessionCookieFor } from "../../../tests/helpers/requests";
import { requireMemberAreaAccess } from "./guards.server";

useTestDatabase();

/** What the guard throws (a redirect or the 404), or "allowed". */
async function outcome(request: Request, memberId: string) {
  try {
    requireMemberAreaAccess(request, await contextFor(request), memberId);
    return "allowed";
  } catch (thrown) {
    if (thrown instanceof Response) return `${thrown.status} ${thrown.headers.get("Location") ?? ""}`.trim();
    const init = (thrown as { init?: { status?: number } }).init;
    return String(init?.status ?? thrown);
  }
}

describe("requireMemberAreaAccess", () => {
  it("lets members into their own area and admins into any", async () => {
    const member = await createUser();
    const admin = await createUser({ acctType: 2, roleId: 2 });
    expect(await outcome(requestAs(await sessionCookieFor(member.id), `/member/${member.id}/profile`), String(member.id))).toBe("allowed");
    expect(await outcome(requestAs(await sessionCookieFor(admin.id), `/member/${member.id}/profile`), String(member.id))).toBe("allowed");
  });

  it("answers 404 for another member's private pages", async () => {
    const member = await createUser();
    const other = await createUser();
    const cookie = await sessionCookieFor(member.id);
    for (const path of ["profile", "dashboard", "musician-profile/5", "artist-profile/1", "musicians/mia/extra"]) {
      expect(await outcome(requestAs(cookie, `/member/${other.id}/${path}`), String(other.id)), path).toBe("404");
    }
  });

  it("opens a shared directory or profile page link in the visitor's own area, query included", async () => {
    const member = await createUser();
    const sharer = await createUser();
    const cookie = await sessionCookieFor(member.id);
    const cases: Array<[string, string]> = [
      [`/member/${sharer.id}/musicians/mia`, `/member/${member.id}/musicians/mia`],
      [`/member/${sharer.id}/artists/midnight-owls`, `/member/${member.id}/artists/midnight-owls`],
      [`/member/${sharer.id}/audio-engineers?genre=3&sort=newest`, `/member/${member.id}/audio-engineers?genre=3&sort=newest`],
    ];
    for (const [from, to] of cases) {
      expect(await outcome(requestAs(cookie, from), String(sharer.id)), from).toBe(`302 ${to}`);
    }
    // Never for a write: a POST to someone else's directory stays a 404.
    const post = new Request(`http://localhost:3999/member/${sharer.id}/musicians`, { method: "POST", headers: { Cookie: cookie } });
    expect(await outcome(post, String(sharer.id))).toBe("404");
  });
});
