/** Liveness probe, and the benchmarks' baseline: the cheapest response this server can give. */
export function loader() {
  return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
}
