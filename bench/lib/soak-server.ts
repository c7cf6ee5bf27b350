// One workbench server as the soak bench drives it: started on a database and data directory of its
// own, caller/track load over a set of incidents that the bench renews, access tokens minted on the
// workbench clock as it moves (a token minted before a jump of days has expired after it), and the
// dashboard API calls the soak mixes in (clock jumps, receiver faults, resends).
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type autocannon from "autocannon";
import { WORKBENCH_ENTRY, load, startChild, stopChild, type LoadResult } from "./load.ts";
import { createDbClient } from "../../server/platform/db/client.ts";
import { WorkbenchClock } from "../../server/platform/clock/clock.ts";
import { createIncidents, partnerHeaders } from "./partner-calls.ts";

export const SOAK_INCIDENTS = 64;
const BODY = '{"latitude":59.97,"longitude":10.76}';

export async function openSoakServer(label: string, databaseUrl: string, port: number, env: Record<string, string>) {
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = `.data/bench-soak-${port}`;
  await mkdir(dataDir, { recursive: true });
  const server = await startChild(
    ...WORKBENCH_ENTRY,
    {
      NODE_ENV: "production",
      PORT: String(port),
      PUBLIC_URL: origin,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "warn",
      ...env,
    },
    `${origin}/api/health`,
    { stdoutFile: path.join(dataDir, "server.log") },
  );
  const db = createDbClient(databaseUrl, { poolSize: 2 });
  let offsetMs = 0;
  let headers: Record<string, string> = {};
  let ids: string[] = [];
  let n = 0;
  let created = 0;

  /** A token valid on the workbench clock as it is now. */
  async function mint() {
    headers = await partnerHeaders(db, new WorkbenchClock({ offsetMs }), origin);
  }

  /** A new set of incidents to load: a used workbench sees new incidents all the time, not one track growing. */
  async function renewIncidents() {
    const first = created;
    created += SOAK_INCIDENTS;
    ids = await createIncidents(origin, headers, SOAK_INCIDENTS, (i) => `+479${String(first + i).padStart(7, "0")}`);
  }

  const requests = (): autocannon.Request[] => [
    {
      method: "POST",
      headers,
      body: BODY,
      setupRequest: (req) => ({ ...req, path: `/v1/incidents/${ids[n++ % ids.length]}/caller/track` }),
    },
  ];

  /** A dashboard API call (local mode: loopback, no sign-in), superjson's wire shape. */
  async function trpc(procedure: string, input: unknown) {
    const res = await fetch(`${origin}/api/trpc/${procedure}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ json: input }),
    });
    if (!res.ok) throw new Error(`${procedure}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { result: { data: { json: unknown } } }).result.data.json;
  }

  try {
    // A kept cluster reopened (SOAK_DATA_DIR): the clock stands where the last run left it.
    offsetMs = Number((await db.workbenchClock.findUnique({ where: { id: 1 } }))?.offsetMs ?? 0);
    await mint();
    for (let i = 0; i < 100; i++) {
      const caps = await db.webhookCapabilities.findUnique({ where: { integrationKey: "north-psap" } });
      if (caps?.status === "active" || env.DELIVERY_WORKERS === "false") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await renewIncidents();
    await load(`${label} warm-up`, { url: origin, requests: requests(), seconds: 3 });
  } catch (error) {
    await db.$disconnect();
    await stopChild(server);
    throw error;
  }
  return {
    label,
    origin,
    server,
    db,
    renewIncidents,
    /** Unthrottled at 32 connections (the capacity), or at `rate` requests per second overall. */
    row(name: string, seconds: number, rate?: number): Promise<LoadResult> {
      return load(name, { url: origin, requests: requests(), seconds, cpuOf: server, ...(rate ? { rate } : {}) });
    },
    /** Moves the workbench clock ahead (at most a week per call, as the clock controls allow) and mints anew. */
    async jump(byMs: number) {
      const state = (await trpc("clock.advance", { byMs })) as { offsetMs: number };
      offsetMs = state.offsetMs;
      await mint();
      return offsetMs;
    },
    setFault: (key: string, mode: string, forText: string) => trpc("receivers.setFault", { key, mode, for: forText }),
    resend: () => trpc("deliveries.resend", { incidentId: ids[0] }),
    get offsetMs() {
      return offsetMs;
    },
    async close() {
      await db.$disconnect();
      await stopChild(server);
    },
  };
}

export type SoakServer = Awaited<ReturnType<typeof openSoakServer>>;
