import crypto from "node:crypto";
import PusherServer from "pusher";
import { describe, expect, it } from "vitest";
import { loadRealtimeConfig } from "../src/config";
import { parseQuery, stringToSign, verifyRequest } from "../src/http-api";
import {
  encryptedChannelSharedSecret,
  isValidChannelName,
  isValidPublishChannel,
  isValidSocketId,
  newSocketId,
  signChannel,
  signUser,
  verifyAuth,
} from "../src/protocol";

describe("auth signatures", () => {
  it("matches the documented test vector", () => {
    const auth = signChannel("278d425bdf160c739803", "7ad3773142a6692b25b8", "1234.1234", "private-foobar");
    const [key, sig] = auth.split(":");
    expect(key).toBe("278d425bdf160c739803");
    expect(sig).toMatch(/^58df8b0c[0-9a-f]{50}51c3a4$/);
    // And the same value computed independently with node:crypto.
    const independent = crypto.createHmac("sha256", "7ad3773142a6692b25b8").update("1234.1234:private-foobar").digest("hex");
    expect(sig).toBe(independent);
  });

  it("agrees with the pusher server SDK for private, presence and user sign-in", () => {
    const sdk = new PusherServer({ appId: "1", key: "k", secret: "s3cr3t-value", host: "127.0.0.1" });
    expect(signChannel("k", "s3cr3t-value", "1.2", "private-x")).toBe(sdk.authorizeChannel("1.2", "private-x").auth);
    const presence = sdk.authorizeChannel("1.2", "presence-x", { user_id: "7", user_info: { n: 1 } });
    expect(signChannel("k", "s3cr3t-value", "1.2", "presence-x", presence.channel_data)).toBe(presence.auth);
    const user = sdk.authenticateUser("1.2", { id: "7" });
    expect(signUser("k", "s3cr3t-value", "1.2", user.user_data)).toBe(user.auth);
  });

  it("verifies in constant time and refuses another key or signature", () => {
    const auth = signChannel("k", "s", "1.2", "private-x");
    expect(verifyAuth(auth, "k", "s", "1.2:private-x")).toBe(true);
    expect(verifyAuth(auth, "other", "s", "1.2:private-x")).toBe(false);
    expect(verifyAuth(auth, "k", "s", "1.3:private-x")).toBe(false);
    expect(verifyAuth("k:", "k", "s", "1.2:private-x")).toBe(false);
    expect(verifyAuth(undefined, "k", "s", "1.2:private-x")).toBe(false);
  });

  it("derives the encrypted channel's shared secret as the SDK does", () => {
    const master = crypto.randomBytes(32);
    const sdk = new PusherServer({
      appId: "1",
      key: "k",
      secret: "s",
      host: "127.0.0.1",
      encryptionMasterKeyBase64: master.toString("base64"),
    });
    const fromSdk = sdk.authorizeChannel("1.2", "private-encrypted-x").shared_secret;
    expect(encryptedChannelSharedSecret("private-encrypted-x", master)).toBe(fromSdk);
  });
});

describe("names and ids", () => {
  it("accepts the allowed characters up to 164 characters", () => {
    expect(isValidChannelName("private-a_b-c=d@e,f.g;h")).toBe(true);
    expect(isValidChannelName("a".repeat(164))).toBe(true);
    expect(isValidChannelName("a".repeat(165))).toBe(false);
    expect(isValidChannelName("")).toBe(false);
    expect(isValidChannelName("with space")).toBe(false);
    expect(isValidChannelName("colon:no")).toBe(false);
    expect(isValidChannelName("#server-to-user-1")).toBe(false);
    expect(isValidChannelName(42)).toBe(false);
  });

  it("lets the HTTP API publish to #server-to-user- channels only", () => {
    expect(isValidPublishChannel("#server-to-user-42")).toBe(true);
    expect(isValidPublishChannel("#other")).toBe(false);
    expect(isValidPublishChannel("#server-to-user-")).toBe(false);
  });

  it("makes socket ids the SDK accepts", () => {
    for (let i = 0; i < 50; i++) expect(isValidSocketId(newSocketId())).toBe(true);
    expect(isValidSocketId("1.2.3")).toBe(false);
  });
});

describe("HTTP request signing", () => {
  const opts = { key: "k", secret: "s" };

  function signed(method: string, path: string, body: string, params: Record<string, string> = {}, ts = Math.floor(Date.now() / 1000)) {
    const q: Record<string, string> = { auth_key: "k", auth_timestamp: String(ts), auth_version: "1.0", ...params };
    if (body) q.body_md5 = crypto.createHash("md5").update(body).digest("hex");
    const map = new Map(Object.entries(q));
    const sig = crypto
      .createHmac("sha256", "s")
      .update(stringToSign(method, path, map))
      .digest("hex");
    map.set("auth_signature", sig);
    return map;
  }

  it("accepts what the SDK signs", () => {
    const sdk = new PusherServer({ appId: "1", key: "k", secret: "s", host: "127.0.0.1" });
    const body = JSON.stringify({ name: "e", data: "{}", channels: ["a"] });
    const qs = sdk.createSignedQueryString({ method: "POST", path: "/apps/1/events", body });
    expect(() => verifyRequest(opts, "POST", "/apps/1/events", parseQuery(qs), body)).not.toThrow();
    const get = sdk.createSignedQueryString({
      method: "GET",
      path: "/apps/1/channels",
      params: { filter_by_prefix: "presence-", info: "user_count" },
    });
    expect(() => verifyRequest(opts, "GET", "/apps/1/channels", parseQuery(get), "")).not.toThrow();
  });

  it("refuses timestamps more than 600 s away, bad md5 and bad signatures", () => {
    const body = '{"a":1}';
    const now = Math.floor(Date.now() / 1000);
    expect(() => verifyRequest(opts, "POST", "/p", signed("POST", "/p", body, {}, now - 590), body)).not.toThrow();
    expect(() => verifyRequest(opts, "POST", "/p", signed("POST", "/p", body, {}, now - 601), body)).toThrow(/Timestamp/);
    expect(() => verifyRequest(opts, "POST", "/p", signed("POST", "/p", body, {}, now + 601), body)).toThrow(/Timestamp/);
    expect(() => verifyRequest(opts, "POST", "/p", signed("POST", "/p", body), '{"a":2}')).toThrow(/body_md5/);
    const tampered = signed("GET", "/p", "", { info: "user_count" });
    tampered.set("info", "subscription_count");
    expect(() => verifyRequest(opts, "GET", "/p", tampered, "")).toThrow(/signature/);
    expect(() => verifyRequest(opts, "GET", "/other", signed("GET", "/p", ""), "")).toThrow(/signature/);
  });
});

describe("settings", () => {
  it("has safe local defaults and requires a secret in production", () => {
    const local = loadRealtimeConfig({ APP_ENV: "local" });
    expect(local).toMatchObject({ host: "127.0.0.1", port: 6001, activityTimeout: 120 });
    expect(local.redisUrl).toBeUndefined();
    expect(() => loadRealtimeConfig({})).toThrow(/REALTIME_SECRET/);
    expect(loadRealtimeConfig({ REALTIME_SECRET: "a-long-secret" }).secret).toBe("a-long-secret");
  });

  it("lists every bad value", () => {
    expect(() => loadRealtimeConfig({ APP_ENV: "local", REALTIME_PORT: "99999", REDIS_URL: "http://x", REALTIME_ENCRYPTION_MASTER_KEY: "abc" })).toThrow(
      /REALTIME_PORT[\s\S]*REDIS_URL[\s\S]*REALTIME_ENCRYPTION_MASTER_KEY/,
    );
    const key = crypto.randomBytes(32).toString("base64");
    expect(loadRealtimeConfig({ APP_ENV: "local", REALTIME_ENCRYPTION_MASTER_KEY: key }).encryptionMasterKey?.length).toBe(32);
  });
});
