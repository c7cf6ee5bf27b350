// `npm run test:e2e` and `npm run test:examples` run this first, before any build: the end-to-end
// suites need a Chromium, and without one every spec would fail on its own spawn error. When none
// is found (packages/playwright/src/find-chromium.js says where it looks) it prints ONE line, what
// to install on this system, and exits 1; `npm test` has printed the unit and integration results
// by then.
import { findChromium } from "../packages/playwright/src/find-chromium.js";

const chromium = findChromium();
if (!chromium.found) {
  console.error(chromium.message);
  process.exit(1);
}
console.log(`Chromium: ${chromium.path}${chromium.source === "system" ? "" : ` (from ${chromium.source})`}`);
