import { describe, expect, it } from "vitest";
import { createUser, TEST_PASSWORD } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { authenticatePassword } from "./authenticator.server";

useTestDatabase();

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};
const loginRequest = (cookie?: string) => new Request("http://localhost/login", { method: "POST", headers: cookie ? { Cookie: cookie } : {} });

describe("the login's password step (remix-auth FormStrategy)", () => {
  it("answers the user and where to go for a right password", async () => {
    const user = await createUser();
    const login = await authenticatePassword(
      loginRequest(),
      form({ email: user.email.toUpperCase(), password: TEST_PASSWORD, redirect: "/member/1/profile" }),
      "198.51.100.7",
    );
    expect(login).toMatchObject({ ok: true, user: { id: user.id }, redirect: "/member/1/profile" });
  });

  it("answers the form's reply, never the password, for a wrong one or a malformed form", async () => {
    const user = await createUser();
    const wrong = await authenticatePassword(loginRequest(), form({ email: user.email, password: "not it" }), "198.51.100.8");
    expect(wrong).toMatchObject({ ok: false, status: 400 });
    if (wrong.ok) return;
    expect(wrong.reply.error?.[""]?.[0]).toMatch(/credentials do not match/);
    expect(JSON.stringify(wrong.reply)).not.toContain("not it");

    const malformed = await authenticatePassword(loginRequest(), form({ email: "not-an-address" }), "198.51.100.8");
    expect(malformed).toMatchObject({ ok: false, status: 400 });
  });

  it("counts failures per client address: the address the server passes, not one the browser claims", async () => {
    const user = await createUser();
    const claiming = (ip: string) => new Request("http://localhost/login", { method: "POST", headers: { "x-backline-login-ip": ip } });
    // Five wrong passwords fill the account's window for 192.0.2.1 (LOGIN_LIMIT_PER_ACCOUNT), though each request claims another address.
    for (let i = 0; i < 5; i++) await authenticatePassword(claiming(`203.0.113.${i}`), form({ email: user.email, password: "wrong" }), "192.0.2.1");
    expect(await authenticatePassword(claiming("203.0.113.50"), form({ email: user.email, password: TEST_PASSWORD }), "192.0.2.1")).toMatchObject({
      ok: false,
      status: 429,
    });
    // From another address the owner still logs in.
    expect(await authenticatePassword(claiming("192.0.2.1"), form({ email: user.email, password: TEST_PASSWORD }), "192.0.2.2")).toMatchObject({ ok: true });
  });
});
