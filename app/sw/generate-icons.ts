// Regenerates the web app manifest's icons in public/icons from the logo (the favicon's bars):
//   node_modules/.bin/tsx app/sw/generate-icons.ts
// The PNGs are committed, so neither the build nor `npm run dev` needs sharp for them.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const BRAND = "#14532d";
const BARS = `<g fill="#fff"><rect x="4" y="11" width="2.5" height="7" rx="1"/><rect x="8.5" y="7" width="2.5" height="11" rx="1"/><rect x="13" y="4" width="2.5" height="14" rx="1"/><rect x="17.5" y="9" width="2.5" height="9" rx="1"/></g>`;

/** purpose "any": the favicon, a rounded square. */
const anySvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="${BRAND}"/>${BARS}</svg>`;
/** purpose "maskable": full bleed, the bars inside the central safe zone (a circle of 80% diameter). */
const maskableSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" fill="${BRAND}"/><g transform="translate(12 12) scale(0.72) translate(-12 -11)">${BARS}</g></svg>`;

const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../public/icons");
fs.mkdirSync(outDir, { recursive: true });
for (const size of [192, 512]) {
  for (const [name, svg] of [
    [`icon-${size}.png`, anySvg],
    [`icon-maskable-${size}.png`, maskableSvg],
  ] as const) {
    await sharp(Buffer.from(svg), { density: (72 * size) / 24 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toFile(path.join(outDir, name));
    console.log(`public/icons/${name}`);
  }
}
