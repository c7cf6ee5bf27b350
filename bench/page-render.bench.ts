// Time to first byte of whole pages as a browser asks for them, against the compiled server as `npm start`
// runs it: the dashboard's overview, two pages that had been prerendered before every page took a nonce
// (the clock, the UI kit: docs/decisions/0056-roles-on-screen-and-a-strict-csp.md), and the portal's
// incident page with a dispatcher's session; beside the bare ceiling of the same server, /api/health
// (Hono on the main thread, no page). One request at a time (a person opening a page), then 8 at once.
import { WORKBENCH_ENTRY, load, startChild, stopChild } from "./lib/load.ts";
import { median } from "./lib/median.ts";

const SEQUENTIAL = Number(process.env.BENCH_PAGE_REQUESTS ?? 300);

/** A dispatcher's portal session, the way a partner backend signs one in (client_credentials → sign-in token). */
async function portalCookie(origin: string): Promise<string> {
  const token = await fetch(`${origin}/connect/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: "partner-cad",
      client_secret: "partner-cad-secret",
      scope: "identity.user.signin",
    }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const signin = await fetch(`${origin}/Account/GetUserSigninToken`, {
    method: "POST",
    headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json" },
    body: JSON.stringify({ agencyContext: "0b0c5b52-1c0e-4a57-9a57-000000000001", username: "dispatcher.north" }),
  }).then((r) => r.json() as Promise<{ token: string }>);
  const login = await fetch(`${origin}/Account/LoginUserByToken?token=${signin.token}&returnUrl=/portal`, {
    redirect: "manual",
  });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith("wb_portal_session="));
  if (!cookie) throw new Error(`no portal session (LoginUserByToken answered ${login.status})`);
  return cookie.split(";", 1)[0]!;
}

async function firstPortalIncident(origin: string, cookie: string): Promise<string> {
  const input = encodeURIComponent(JSON.stringify({ json: { state: "all" } }));
  const res = await fetch(`${origin}/api/trpc/portal.incidents?input=${input}`, { headers: { cookie } });
  const rows = ((await res.json()) as { result: { data: { json: Array<{ id: string }> } } }).result.data.json;
  if (!rows[0]) throw new Error("the seed left the dispatcher no incident");
  return rows[0].id;
}

/** Median and 95th percentile of the time to the response's headers, one request at a time; bodies read whole. */
async function ttfb(url: string, headers: Record<string, string>) {
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
  }
  times.sort((a, b) => a - b);
  return { p50: median(times), p95: times[Math.floor(times.length * 0.95)]! };
}

type Row = { page: string; p50: number; p95: number; nonce: boolean; rps: number };

/** One server of the build in `dir` (a copy of a whole build: see BENCH_PAGES_AB), every page measured. */
async function measure(dir: string | undefined, port: number): Promise<Row[]> {
  const origin = `http://localhost:${port}`;
  const workbench = await startChild(
    ...WORKBENCH_ENTRY,
    { NODE_ENV: "production", PORT: String(port), DATA_DIR: ".data/bench-pages", LOG_LEVEL: "warn" },
    `${origin}/api/health`,
    { cwd: dir },
  );
  try {
    const cookie = await portalCookie(origin);
    const incidentId = await firstPortalIncident(origin, cookie);
    const pages: Array<[string, string, Record<string, string>]> = [
      ["/api/health (bare ceiling)", "/api/health", {}],
      ["/ (overview)", "/", {}],
      ["/clock", "/clock", {}],
      ["/ui-kit", "/ui-kit", {}],
      ["/portal/incidents/{id}", `/portal/incidents/${incidentId}`, { cookie }],
    ];
    const rows: Row[] = [];
    for (const [name, path, headers] of pages) {
      // Warm: the page's modules load on its first request (preloadEntriesOnStart: false).
      for (let i = 0; i < 5; i++) await fetch(`${origin}${path}`, { headers }).then((r) => r.arrayBuffer());
      const t = await ttfb(`${origin}${path}`, headers);
      const csp = (await fetch(`${origin}${path}`, { headers })).headers.get("content-security-policy") ?? "";
      const loaded = await load(name, { url: `${origin}${path}`, headers, connections: 8, seconds: 5 });
      rows.push({ page: name, p50: t.p50, p95: t.p95, nonce: /'nonce-/.test(csp), rps: loaded.rps });
    }
    return rows;
  } finally {
    await stopChild(workbench);
  }
}

const table = (rows: Row[], label = "") =>
  rows.map((r) => ({
    ...(label ? { build: label } : {}),
    page: r.page,
    "TTFB p50 ms": +r.p50.toFixed(1),
    "TTFB p95 ms": +r.p95.toFixed(1),
    "req/s at 8 conn.": r.rps,
    nonce: r.nonce ? "yes" : "no",
  }));

/**
 * `BENCH_PAGES_AB=<dir A>,<dir B>`: two whole builds (each a folder with `.next`, `dist`, `package.json`,
 * `next.config.mjs`, `public`, `prisma` and a `node_modules` link; see docs/performance.md), run A, B, B, A
 * on the same port and data directory; the medians of each build's two runs per page.
 */
export async function run() {
  const port = Number(process.env.BENCH_PORT ?? 3210) + 5;
  const ab = process.env.BENCH_PAGES_AB?.split(",").map((d) => d.trim());
  console.log(`\n## Pages: time to first byte one request at a time (${SEQUENTIAL} each), and req/s at 8 connections`);
  if (!ab) {
    console.table(table(await measure(undefined, port)));
    return;
  }
  const runs: Record<string, Row[][]> = { [ab[0]!]: [], [ab[1]!]: [] };
  for (const dir of [ab[0]!, ab[1]!, ab[1]!, ab[0]!]) runs[dir]!.push(await measure(dir, port));
  for (const dir of ab) {
    const [first, second] = runs[dir]!;
    const merged = first!.map((r, i) => {
      const o = second![i]!;
      return { ...r, p50: median([r.p50, o.p50]), p95: median([r.p95, o.p95]), rps: median([r.rps, o.rps]) };
    });
    console.table(table(merged, dir));
  }
}
