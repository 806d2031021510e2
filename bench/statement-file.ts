/** A canonical digital sales statement for the benches (bench/import-bench.ts, bench/write-statement.ts). */
import fs from "node:fs";

export const HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

/**
 * `lines` lines (200,000 in the benches), deterministic: ~79% matched by ISRC over ~50 songs (some written with hyphens and in lower
 * case), ~6% album lines by UPC (spread over their tracks), ~12% unknown ISRCs (suspense), ~3% in EUR or GBP
 * with their rate on the line; one line in 150 a refund. Amounts have up to 8 decimals.
 */
export function writeStatement(file: string, lines: number, songs: Array<{ isrc: string; title: string }>, upcs: string[]) {
  let seed = 20260815;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const stores = ["Spotify", "Apple Music", "Amazon Music", "YouTube Music", "Deezer", "Tidal"];
  const territories = ["US", "GB", "DE", "FR", "BR", "JP", "MX", "CA"];
  const out = fs.openSync(file, "w");
  let chunk = HEADER + "\n";
  for (let i = 0; i < lines; i++) {
    const bucket = i % 100;
    const period = i % 3 === 0 ? "2026-06" : "2026-07";
    const store = stores[i % stores.length]!;
    const territory = territories[(i >> 3) % territories.length]!;
    let amount = (random() * 0.05).toFixed(8);
    if (i % 150 === 7) amount = `-${amount}`;
    let upc = "";
    let title = "";
    let isrc = "";
    let currency = "USD";
    let rate = "";
    let sale = "stream";
    let product = "track";
    if (bucket < 79 || bucket >= 97) {
      const song = songs[(i * 7) % songs.length]!;
      title = song.title;
      isrc = i % 10 === 3 ? `${song.isrc.slice(0, 2)}-${song.isrc.slice(2, 5)}-${song.isrc.slice(5, 7)}-${song.isrc.slice(7)}`.toLowerCase() : song.isrc;
      if (bucket >= 97) {
        currency = bucket === 99 ? "GBP" : "EUR";
        rate = bucket === 99 ? "1.2712" : "1.0832";
      }
    } else if (bucket < 85) {
      upc = `0${upcs[i % upcs.length]!}`;
      sale = "download";
      product = "album";
      amount = (random() * 8).toFixed(2);
    } else {
      title = `Somebody Else ${i % 997}`;
      isrc = `GBXXX26${String(i % 99_991).padStart(5, "0")}`;
    }
    chunk += `BENCH-${lines},2026-08-15,${period},${period},${store},,${sale},${product},${territory},Midnight Owls,,${upc},${title},${isrc},1,${amount},${currency},${amount},${amount},${currency},${rate}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = "";
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}
