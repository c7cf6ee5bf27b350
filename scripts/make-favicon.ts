// `node_modules/.bin/tsx scripts/make-favicon.ts`: public/favicon.ico from app/icon.svg, for
// clients that ask for /favicon.ico without reading the page's icon link (bookmarks, feed
// readers, the Hono-rendered pages such as the sign-in form). Chromium (the one Playwright
// uses here) draws the SVG at 16, 32 and 48 px; the ICO holds those PNGs (ICO with PNG
// entries: every current browser and Windows since Vista read it). Run it after changing the icon.
import { readFileSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { chromiumExecutablePath } from "../packages/playwright/src/find-chromium.js";

const SIZES = [16, 32, 48];
const svg = readFileSync("app/icon.svg", "utf8");

const browser = await chromium.launch({
  executablePath: chromiumExecutablePath(),
  args: ["--no-sandbox", "--disable-gpu"],
});
const pngs: Buffer[] = [];
try {
  for (const size of SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace("<svg ", `<svg width="${size}" height="${size}" `)}</body></html>`,
    );
    pngs.push(await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
    await page.close();
  }
} finally {
  await browser.close();
}

// ICONDIR (6 bytes), one ICONDIRENTRY (16 bytes) per image, then the images.
const header = Buffer.alloc(6);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2); // 1 = icon
header.writeUInt16LE(pngs.length, 4);
let offset = 6 + 16 * pngs.length;
const entries = pngs.map((png, i) => {
  const e = Buffer.alloc(16);
  e.writeUInt8(SIZES[i]! % 256, 0);
  e.writeUInt8(SIZES[i]! % 256, 1);
  e.writeUInt8(0, 2); // no palette
  e.writeUInt8(0, 3);
  e.writeUInt16LE(1, 4); // colour planes
  e.writeUInt16LE(32, 6); // bits per pixel
  e.writeUInt32LE(png.length, 8);
  e.writeUInt32LE(offset, 12);
  offset += png.length;
  return e;
});
writeFileSync("public/favicon.ico", Buffer.concat([header, ...entries, ...pngs]));
console.log(`public/favicon.ico: ${SIZES.join(", ")} px, ${offset} bytes`);
