// The UI kit's virtual list with 100,000 rows (the delivery inspector's list), in
// Chromium (packages/playwright/src/find-chromium.js) against the compiled server, as `npm start` runs it:
// time per animation frame while jumping 2,000 rows per frame, next to two
// ceilings measured in the same run on the same (shared, GPU-less) machine — idle
// frames of the same page, and the same jumps in a bare scroll container with
// nothing to render. A frame-time figure is a measurement, not a test assertion:
// e2e/ui-kit.spec.ts keeps the functional check (rows rendered, DOM small).
import { chromium, type Page } from "@playwright/test";
import { chromiumExecutablePath } from "../packages/playwright/src/find-chromium.js";
import { WORKBENCH_ENTRY, startChild, stopChild } from "./lib/load.ts";

const FRAMES = 50;
const RUNS = 3;

/** ms per frame: `FRAMES` idle frames, then `FRAMES` frames each jumping 1/FRAMES of the scroll height. */
async function frameTimes(page: Page, selector: string): Promise<{ idle: number; jump: number }> {
  // No named function inside: tsx names each one through a helper (`__name`) the page lacks.
  return page.locator(selector).evaluate(async (el, frames) => {
    let t0 = performance.now();
    for (let i = 0; i < frames; i++) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const idle = (performance.now() - t0) / frames;
    t0 = performance.now();
    for (let i = 0; i < frames; i++) {
      el.scrollTop = (el.scrollHeight * i) / frames;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return { idle, jump: (performance.now() - t0) / frames };
  }, FRAMES);
}

export async function run() {
  const port = Number(process.env.BENCH_PORT ?? 3210) + 3;
  const origin = `http://localhost:${port}`;
  const workbench = await startChild(
    ...WORKBENCH_ENTRY,
    {
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: ".data/bench-ui",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    `${origin}/api/health`,
  );
  const browser = await chromium.launch({
    executablePath: chromiumExecutablePath(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const rows = [];
    for (let i = 1; i <= RUNS; i++) {
      await page.goto(`${origin}/ui-kit`);
      await page.getByRole("button", { name: "Load all 100,000" }).click();
      await page.getByTestId("virtual-loaded").filter({ hasText: "100,000" }).waitFor();
      const list = await frameTimes(page, '[role="listbox"][aria-label="Sample deliveries"]');
      // The bare ceiling: the same jumps over the same height, nothing rendered in the container.
      await page.setContent(
        '<div id="bare" style="height:480px;overflow:auto"><div style="height:3600000px"></div></div>',
      );
      const bare = await frameTimes(page, "#bare");
      rows.push({
        run: i,
        "idle frame ms (ceiling)": list.idle.toFixed(1),
        "bare container jump ms (ceiling)": bare.jump.toFixed(1),
        "virtual list jump ms": list.jump.toFixed(1),
      });
    }
    console.log(
      `\n## UI kit virtual list, 100,000 rows: ms per frame, ${FRAMES} frames each jumping 2,000 rows (${RUNS} runs, Chromium without GPU)`,
    );
    console.table(rows);
  } finally {
    await browser.close();
    await stopChild(workbench);
  }
}
