/**
 * The bare `ws` baseline for realtime-bench.ts: no protocol, no channels. POST /broadcast sends the
 * request body verbatim, as one text frame, to every connected client (converted to a Buffer once, as
 * the realtime server does). Prints `baseline listening on http://127.0.0.1:<port>`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";

// Same hook as realtime-node.ts: SIGUSR2 runs a full GC (with --expose-gc) before memory is read.
const runGc = (globalThis as { gc?: () => void }).gc;
process.on("SIGUSR2", () => runGc?.());

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

const server = http.createServer((req, res) => {
  if (req.method === "POST" && req.url === "/broadcast") {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const payload = Buffer.concat(chunks);
      for (const ws of wss.clients) ws.send(payload, { binary: false });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    return;
  }
  res.writeHead(404);
  res.end();
});

server.on("upgrade", (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on("error", () => {});
    ws.send('{"event":"ready"}');
  });
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

process.on("SIGTERM", () => {
  for (const ws of wss.clients) ws.terminate();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
