import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local stand-in for the few Stripe endpoints Backline uses: Stripe
 * cannot be reached from here. Test code only; the app reaches it through the SDK's own host/port/protocol
 * settings (STRIPE_API_BASE), nothing else. It answers Stripe-shaped JSON, keeps Stripe's idempotency-key
 * behaviour for transfers, plays Stripe's hosted onboarding page (account links that expire and are single
 * use), and sends webhooks signed the way Stripe signs them (the SDK's generateTestHeaderString).
 *
 * Endpoints: POST /v1/accounts, GET /v1/accounts/:id, POST /v1/account_links, POST /v1/transfers,
 * GET /v1/transfers (transfer_group filter), POST /v1/transfers/:id/reversals, POST /v1/checkout/sessions,
 * GET /v1/checkout/sessions/:id, POST /v1/refunds (a paid session's payment intent, in full); the hosted onboarding page GET/POST /connect/onboarding/:link and the hosted
 * Checkout page GET/POST /checkout/pay/:session (paying sends checkout.session.completed).
 */

export interface StandInAccount {
  id: string;
  object: "account";
  type: "express";
  country: string;
  email: string | null;
  business_type: string | null;
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  capabilities: { transfers: "active" | "inactive" | "pending" };
  requirements: { currently_due: string[]; disabled_reason: string | null };
  tos_acceptance: { service_agreement: string };
  metadata: Record<string, string>;
  created: number;
}

export interface StandInTransfer {
  id: string;
  object: "transfer";
  amount: number;
  amount_reversed: number;
  currency: string;
  description: string | null;
  destination: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
  reversed: boolean;
  reversals: {
    object: "list";
    data: Array<{ id: string; object: "transfer_reversal"; amount: number; transfer: string; created: number }>;
    has_more: false;
    url: string;
  };
  created: number;
  livemode: false;
}

/** A refund of a paid Checkout Session's payment, in full. */
export interface StandInRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  metadata: Record<string, string>;
  status: "succeeded";
  created: number;
}

/** The parts of a Checkout Session (mode payment) the app reads. */
export interface StandInCheckoutSession {
  id: string;
  object: "checkout.session";
  mode: "payment";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  livemode: false;
}

interface StandInLink {
  id: string;
  account: string;
  refreshUrl: string;
  returnUrl: string;
  expiresAt: number;
  used: boolean;
}

export interface StandInOptions {
  port?: number;
  /** Where webhooks go (the app's POST /api/stripe/webhooks) and their signing secret; with both, the stand-in sends events by itself as Stripe would. */
  webhookUrl?: string;
  webhookSecret?: string;
  /** Seconds an onboarding link lives (Stripe: a few minutes). */
  linkTtlSeconds?: number;
}

export interface SentWebhook {
  event: Stripe.Event;
  status: number;
  body: string;
}

export interface StripeStandIn {
  url: string;
  port: number;
  accounts: Map<string, StandInAccount>;
  transfers: Map<string, StandInTransfer>;
  links: Map<string, StandInLink>;
  checkoutSessions: Map<string, StandInCheckoutSession>;
  refunds: Map<string, StandInRefund>;
  /** Pays an open Checkout Session as the hosted page would; answers the completed session. */
  payCheckoutSession(sessionId: string): StandInCheckoutSession;
  /** Every API request received: method, path and Idempotency-Key. */
  requests: Array<{ method: string; path: string; idempotencyKey: string | null }>;
  /** The next POST /v1/transfers is carried out, but its connection is cut before the answer (a lost response). */
  dropNextTransferResponse(): void;
  /** The next `requests` POST /v1/refunds answer 503 (with Stripe-Should-Retry: false), refunding nothing. */
  refundsUnavailableFor(requests: number): void;
  /** Finishes an account's onboarding as the hosted page would (details submitted, transfers active). */
  completeOnboarding(accountId: string): StandInAccount;
  /** Every onboarding link made so far expires now. */
  expireLinks(): void;
  /** Reverses (part of) a transfer as the Dashboard would; answers the updated transfer. */
  reverseTransfer(transferId: string, amount?: number): StandInTransfer;
  /** A signed event for `object` (a fresh event id unless `id` is given). */
  event(type: string, object: unknown, id?: string): Stripe.Event;
  /** Sends an event to a webhook URL, signed with `secret` (or a header given as is). */
  sendEvent(event: Stripe.Event, target?: { url?: string; secret?: string; signature?: string }): Promise<SentWebhook>;
  close(): Promise<void>;
}

const now = () => Math.floor(Date.now() / 1000);
/** As Stripe does, a response given again for an idempotency key says so. */
const REPLAYED = { "Idempotent-Replayed": "true" };
const randomId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;

/** Stripe's form encoding (`a[b][c]=v`) back into nested objects. */
function parseForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node = out as Record<string, unknown>;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

class StandInError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export async function startStripeStandIn(options: StandInOptions = {}): Promise<StripeStandIn> {
  const accounts = new Map<string, StandInAccount>();
  const transfers = new Map<string, StandInTransfer>();
  const links = new Map<string, StandInLink>();
  const checkoutSessions = new Map<string, StandInCheckoutSession>();
  const refunds = new Map<string, StandInRefund>();
  const requests: StripeStandIn["requests"] = [];
  const idempotent = new Map<string, { params: string; status: number; body: string }>();
  let dropNext = false;
  let refundsUnavailable = 0;
  const signer = new Stripe("sk_test_stand_in_signer");
  let baseUrl = "";

  function account(id: string): StandInAccount {
    const found = accounts.get(id);
    if (!found) throw new StandInError(404, "invalid_request_error", `No such account: '${id}'`, "resource_missing", "account");
    return found;
  }

  function completeOnboarding(id: string): StandInAccount {
    const a = account(id);
    Object.assign(a, {
      details_submitted: true,
      payouts_enabled: true,
      charges_enabled: false,
      capabilities: { transfers: "active" },
      requirements: { currently_due: [], disabled_reason: null },
    });
    return a;
  }

  function reverseTransfer(id: string, amount?: number): StandInTransfer {
    const t = transfers.get(id);
    if (!t) throw new StandInError(404, "invalid_request_error", `No such transfer: '${id}'`, "resource_missing", "id");
    const remaining = t.amount - t.amount_reversed;
    const value = amount ?? remaining;
    if (!Number.isInteger(value) || value <= 0 || value > remaining)
      throw new StandInError(
        400,
        "invalid_request_error",
        "Amount must be above zero and at most what is left to reverse.",
        "parameter_invalid_integer",
        "amount",
      );
    t.amount_reversed += value;
    t.reversed = t.amount_reversed === t.amount;
    t.reversals.data.push({ id: randomId("trr"), object: "transfer_reversal", amount: value, transfer: t.id, created: now() });
    return t;
  }

  function checkoutSession(id: string): StandInCheckoutSession {
    const found = checkoutSessions.get(id);
    if (!found) throw new StandInError(404, "invalid_request_error", `No such checkout.session: '${id}'`, "resource_missing", "session");
    return found;
  }

  function payCheckoutSession(id: string): StandInCheckoutSession {
    const s = checkoutSession(id);
    if (s.status !== "open") throw new StandInError(400, "invalid_request_error", "This Checkout Session is no longer open.", "checkout_session_not_open");
    Object.assign(s, { status: "complete", payment_status: "paid", payment_intent: randomId("pi"), url: null });
    return s;
  }

  function event(type: string, object: unknown, id = randomId("evt")): Stripe.Event {
    return {
      id,
      object: "event",
      api_version: "2026-10-28.endive",
      created: now(),
      data: { object: JSON.parse(JSON.stringify(object)) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    } as unknown as Stripe.Event;
  }

  async function sendEvent(e: Stripe.Event, target: { url?: string; secret?: string; signature?: string } = {}): Promise<SentWebhook> {
    const url = target.url ?? options.webhookUrl;
    const secret = target.secret ?? options.webhookSecret;
    if (!url) throw new Error("No webhook URL for the stand-in");
    const payload = JSON.stringify(e, null, 2);
    const signature = target.signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: secret ?? "" });
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signature, "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
      body: payload,
    });
    return { event: e, status: response.status, body: await response.text() };
  }

  /** Sent by the stand-in itself (as Stripe does) when it knows where; a failure is only logged. */
  function notify(type: string, object: unknown) {
    if (!options.webhookUrl || !options.webhookSecret) return;
    setTimeout(() => void sendEvent(event(type, object)).catch((error) => console.error("[stripe stand-in] webhook failed", error)), 10);
  }

  async function api(
    method: string,
    path: string,
    params: Record<string, unknown>,
    query: URLSearchParams,
    idempotencyKey: string | null,
    rawParams: string,
  ): Promise<{ status: number; body: unknown; drop?: boolean; headers?: Record<string, string> }> {
    if (method === "POST" && path === "/v1/accounts") {
      if (params.type !== "express")
        throw new StandInError(400, "invalid_request_error", "Only Express accounts are supported here.", "parameter_invalid", "type");
      const country = String(params.country ?? "US");
      const a: StandInAccount = {
        id: randomId("acct"),
        object: "account",
        type: "express",
        country,
        email: (params.email as string) ?? null,
        business_type: (params.business_type as string) ?? null,
        details_submitted: false,
        charges_enabled: false,
        payouts_enabled: false,
        capabilities: { transfers: "inactive" },
        requirements: { currently_due: ["individual.first_name", "external_account", "tos_acceptance.date"], disabled_reason: "requirements.past_due" },
        tos_acceptance: { service_agreement: ((params.tos_acceptance as Record<string, string>)?.service_agreement as string) ?? "full" },
        metadata: (params.metadata as Record<string, string>) ?? {},
        created: now(),
      };
      accounts.set(a.id, a);
      return { status: 200, body: a };
    }
    const accountMatch = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === "GET" && accountMatch) return { status: 200, body: account(decodeURIComponent(accountMatch[1]!)) };
    if (method === "POST" && path === "/v1/account_links") {
      const a = account(String(params.account ?? ""));
      for (const field of ["refresh_url", "return_url"]) {
        if (typeof params[field] !== "string" || !/^https?:\/\//.test(params[field] as string))
          throw new StandInError(400, "invalid_request_error", `Invalid URL: ${field}`, "url_invalid", field);
      }
      const link: StandInLink = {
        id: randomId("link"),
        account: a.id,
        refreshUrl: params.refresh_url as string,
        returnUrl: params.return_url as string,
        expiresAt: now() + (options.linkTtlSeconds ?? 300),
        used: false,
      };
      links.set(link.id, link);
      return { status: 200, body: { object: "account_link", created: now(), expires_at: link.expiresAt, url: `${baseUrl}/connect/onboarding/${link.id}` } };
    }
    if (method === "POST" && path === "/v1/transfers") {
      if (idempotencyKey) {
        const earlier = idempotent.get(idempotencyKey);
        if (earlier) {
          if (earlier.params !== rawParams) {
            throw new StandInError(
              400,
              "idempotency_error",
              `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            );
          }
          return { status: earlier.status, body: JSON.parse(earlier.body), headers: REPLAYED };
        }
      }
      const destination = account(String(params.destination ?? ""));
      if (destination.capabilities.transfers !== "active") {
        throw new StandInError(
          400,
          "invalid_request_error",
          "Your destination account needs to have at least one of the following capabilities enabled: transfers",
          "insufficient_capabilities_for_transfer",
          "destination",
        );
      }
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1)
        throw new StandInError(400, "invalid_request_error", "Invalid positive integer", "parameter_invalid_integer", "amount");
      const t: StandInTransfer = {
        id: randomId("tr"),
        object: "transfer",
        amount,
        amount_reversed: 0,
        currency: String(params.currency ?? "usd"),
        description: (params.description as string) ?? null,
        destination: destination.id,
        transfer_group: (params.transfer_group as string) ?? null,
        metadata: (params.metadata as Record<string, string>) ?? {},
        reversed: false,
        reversals: { object: "list", data: [], has_more: false, url: "" },
        created: now(),
        livemode: false,
      };
      t.reversals.url = `/v1/transfers/${t.id}/reversals`;
      transfers.set(t.id, t);
      if (idempotencyKey) idempotent.set(idempotencyKey, { params: rawParams, status: 200, body: JSON.stringify(t) });
      notify("transfer.created", t);
      const drop = dropNext;
      dropNext = false;
      return { status: 200, body: t, drop };
    }
    if (method === "GET" && path === "/v1/transfers") {
      const group = query.get("transfer_group");
      const data = [...transfers.values()].filter((t) => !group || t.transfer_group === group).reverse();
      const limit = Number(query.get("limit") ?? 10);
      return { status: 200, body: { object: "list", data: data.slice(0, limit), has_more: data.length > limit, url: "/v1/transfers" } };
    }
    const reversalMatch = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(path);
    if (method === "POST" && reversalMatch) {
      const t = reverseTransfer(decodeURIComponent(reversalMatch[1]!), params.amount === undefined ? undefined : Number(params.amount));
      notify("transfer.reversed", t);
      return { status: 200, body: t.reversals.data.at(-1) };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      if (params.mode !== "payment") throw new StandInError(400, "invalid_request_error", "Only mode=payment is supported here.", "parameter_invalid", "mode");
      for (const field of ["success_url", "cancel_url"]) {
        if (typeof params[field] !== "string" || !/^https?:\/\//.test(params[field] as string))
          throw new StandInError(400, "invalid_request_error", `Invalid URL: ${field}`, "url_invalid", field);
      }
      const items = Object.values((params.line_items as Record<string, Record<string, unknown>>) ?? {});
      if (items.length === 0)
        throw new StandInError(400, "invalid_request_error", "line_items is required in payment mode.", "parameter_missing", "line_items");
      let total = 0;
      let currency = "";
      for (const item of items) {
        const price = item.price_data as Record<string, unknown> | undefined;
        const amount = Number(price?.unit_amount);
        const quantity = Number(item.quantity ?? 1);
        if (!price || !Number.isInteger(amount) || amount < 1 || !Number.isInteger(quantity) || quantity < 1) {
          throw new StandInError(
            400,
            "invalid_request_error",
            "Each line item needs price_data with a positive unit_amount and a quantity.",
            "parameter_invalid_integer",
            "line_items",
          );
        }
        total += amount * quantity;
        currency = String(price.currency ?? "usd");
      }
      const id = randomId("cs_test");
      const s: StandInCheckoutSession = {
        id,
        object: "checkout.session",
        mode: "payment",
        status: "open",
        payment_status: "unpaid",
        amount_total: total,
        currency,
        client_reference_id: (params.client_reference_id as string) ?? null,
        customer_email: (params.customer_email as string) ?? null,
        metadata: (params.metadata as Record<string, string>) ?? {},
        payment_intent: null,
        success_url: String(params.success_url),
        cancel_url: String(params.cancel_url),
        url: `${baseUrl}/checkout/pay/${id}`,
        created: now(),
        livemode: false,
      };
      checkoutSessions.set(id, s);
      return { status: 200, body: s };
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && sessionMatch) return { status: 200, body: checkoutSession(decodeURIComponent(sessionMatch[1]!)) };
    if (method === "POST" && path === "/v1/refunds") {
      if (refundsUnavailable > 0) {
        refundsUnavailable--;
        // Stripe's own failure, which it asks the SDK not to retry: the caller's next attempt is its own.
        return {
          status: 503,
          body: { error: { type: "api_error", message: "Stripe is temporarily unavailable." } },
          headers: { "Stripe-Should-Retry": "false" },
        };
      }
      if (idempotencyKey) {
        const earlier = idempotent.get(idempotencyKey);
        if (earlier) return { status: earlier.status, body: JSON.parse(earlier.body), headers: REPLAYED };
      }
      const intent = String(params.payment_intent ?? "");
      const paid = [...checkoutSessions.values()].find((s) => s.payment_intent === intent && s.payment_status === "paid");
      if (!paid) throw new StandInError(404, "invalid_request_error", `No such payment_intent: '${intent}'`, "resource_missing", "payment_intent");
      if ([...refunds.values()].some((r) => r.payment_intent === intent)) {
        throw new StandInError(400, "invalid_request_error", `Charge for payment intent ${intent} has already been refunded.`, "charge_already_refunded");
      }
      const refund: StandInRefund = {
        id: randomId("re"),
        object: "refund",
        amount: paid.amount_total,
        currency: paid.currency,
        payment_intent: intent,
        metadata: (params.metadata as Record<string, string>) ?? {},
        status: "succeeded",
        created: now(),
      };
      refunds.set(refund.id, refund);
      if (idempotencyKey) idempotent.set(idempotencyKey, { params: rawParams, status: 200, body: JSON.stringify(refund) });
      return { status: 200, body: refund };
    }
    throw new StandInError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

  /** Stripe's hosted onboarding, played: a link works once and until it expires, else Stripe sends the user to refresh_url. */
  function onboardingPage(req: http.IncomingMessage, res: http.ServerResponse, linkId: string) {
    const link = links.get(linkId);
    if (!link) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Unknown onboarding link");
      return;
    }
    if (link.used || link.expiresAt <= now()) {
      res.writeHead(302, { Location: link.refreshUrl }).end();
      return;
    }
    if (req.method === "POST") {
      link.used = true;
      const a = completeOnboarding(link.account);
      notify("account.updated", a);
      res.writeHead(302, { Location: link.returnUrl }).end();
      return;
    }
    res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><html lang="en"><head><title>Stripe Express onboarding (stand-in)</title></head><body>` +
          `<h1>Set up payouts for ${link.account}</h1><form method="post"><button type="submit">Agree and submit</button></form>` +
          `<a href="${link.returnUrl}">Return without finishing</a></body></html>`,
      );
  }

  /** Stripe's hosted Checkout, played: paying completes the session, sends checkout.session.completed and returns to success_url. */
  function checkoutPage(req: http.IncomingMessage, res: http.ServerResponse, sessionId: string) {
    const s = checkoutSessions.get(sessionId);
    if (!s) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Unknown Checkout Session");
      return;
    }
    const back = (url: string) => url.replace("{CHECKOUT_SESSION_ID}", encodeURIComponent(s.id));
    if (req.method === "POST") {
      if (s.status === "open") {
        payCheckoutSession(s.id);
        notify("checkout.session.completed", s);
      }
      res.writeHead(303, { Location: back(s.success_url) }).end();
      return;
    }
    const amount = `${(s.amount_total / 100).toFixed(2)} ${s.currency.toUpperCase()}`;
    res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><html lang="en"><head><title>Stripe Checkout (stand-in)</title></head><body>` +
          `<h1>Pay ${amount}</h1><form method="post"><button type="submit">Pay ${amount}</button></form>` +
          `<a href="${back(s.cancel_url)}">Back without paying</a></body></html>`,
      );
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const onboarding = /^\/connect\/onboarding\/([^/]+)$/.exec(url.pathname);
      if (onboarding) return onboardingPage(req, res, onboarding[1]!);
      const checkout = /^\/checkout\/pay\/([^/]+)$/.exec(url.pathname);
      if (checkout) return checkoutPage(req, res, checkout[1]!);
      // A browser on the onboarding page asks for an icon: there is none (not an API call, so no key needed).
      if (url.pathname === "/favicon.ico") return void res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
      const raw = Buffer.concat(chunks).toString("utf8");
      const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
      requests.push({ method: req.method ?? "GET", path: url.pathname, idempotencyKey });
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { "Content-Type": "application/json", "Request-Id": randomId("req"), ...headers }).end(JSON.stringify(body));
      if (!/^Bearer (sk|rk)_/.test(req.headers.authorization ?? "")) {
        return send(401, { error: { type: "invalid_request_error", message: "You did not provide an API key." } });
      }
      const params = req.method === "GET" ? {} : parseForm(raw);
      api(req.method ?? "GET", url.pathname, params, url.searchParams, idempotencyKey, raw)
        .then(({ status, body, drop, headers }) => {
          if (drop) {
            req.socket.destroy();
            return;
          }
          send(status, body, { ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}), ...headers });
        })
        .catch((error: unknown) => {
          if (error instanceof StandInError) {
            send(error.status, { error: { type: error.type, message: error.message, code: error.code, param: error.param } });
          } else {
            send(500, { error: { type: "api_error", message: String(error) } });
          }
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    port,
    accounts,
    transfers,
    links,
    checkoutSessions,
    refunds,
    payCheckoutSession,
    requests,
    dropNextTransferResponse: () => {
      dropNext = true;
    },
    refundsUnavailableFor: (requests) => {
      refundsUnavailable = requests;
    },
    completeOnboarding,
    expireLinks: () => {
      for (const link of links.values()) link.expiresAt = now() - 1;
    },
    reverseTransfer,
    event,
    sendEvent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
