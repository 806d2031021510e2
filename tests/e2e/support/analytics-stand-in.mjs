/**
 * A local stand-in for a Plausible instance, started by playwright.config.ts as a second webServer.
 * The app (ANALYTICS_ENDPOINT pointing here) POSTs page views to /api/event; tests read them back.
 *
 *   POST   /api/event  records one event (the body is JSON sent as text/plain, so no preflight)
 *   GET    /events     every event recorded, oldest first; ?ua=<substring> keeps those whose User-Agent contains it
 *   DELETE /events     forgets them all
 *
 * Each recorded event is { body, userAgent, origin, receivedAt }. Tests run in parallel and every page of
 * the suite reports here, so a test picks out its own events by a User-Agent of its own.
 */
import http from "node:http";

const port = Number(process.env.ANALYTICS_STAND_IN_PORT ?? 3211);
const allowedOrigin = process.env.ANALYTICS_STAND_IN_ORIGIN ?? "*";
/** @type {Array<{ body: unknown; userAgent: string; origin: string | null; receivedAt: string }>} */
let events = [];

function cors(res) {
  res.setHeader("Access-Control-Allow-Origin", allowedOrigin);
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", "Content-Type");
  res.setHeader("Vary", "Origin");
}

function json(res, status, value) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(value));
}

const server = http.createServer((req, res) => {
  cors(res);
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  if (req.method === "OPTIONS") {
    res.writeHead(204);
    res.end();
    return;
  }
  if (url.pathname === "/api/event" && req.method === "POST") {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      raw += chunk;
      if (raw.length > 64 * 1024) req.destroy();
    });
    req.on("end", () => {
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        json(res, 400, { error: "body is not JSON" });
        return;
      }
      events.push({
        body,
        userAgent: req.headers["user-agent"] ?? "",
        origin: req.headers.origin ?? null,
        receivedAt: new Date().toISOString(),
      });
      res.writeHead(202, { "Content-Type": "text/plain" });
      res.end("ok");
    });
    return;
  }
  if (url.pathname === "/events" && req.method === "GET") {
    const ua = url.searchParams.get("ua");
    json(res, 200, ua ? events.filter((e) => e.userAgent.includes(ua)) : events);
    return;
  }
  if (url.pathname === "/events" && req.method === "DELETE") {
    events = [];
    res.writeHead(204);
    res.end();
    return;
  }
  json(res, 404, { error: "not found" });
});

server.listen(port, "127.0.0.1", () => {
  console.log(`[analytics stand-in] listening on http://127.0.0.1:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
