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
import { SigningKeyStore } from "../../server/platform/signing-keys.ts";
import { mintAccessToken } from "../../server/identity/access-token.ts";
import { AGENCY, USER } from "../../prisma/seed.ts";

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
    const clock = new WorkbenchClock({ offsetMs });
    const { accessToken } = await mintAccessToken({
      keys: new SigningKeyStore({ db, clock }),
      clock,
      issuer: origin,
      subject: USER.dispatcherNorth,
      audience: `${origin}/v1`,
      clientId: "partner-cad",
      scope: ["incident.create", "incident.caller.track", "username.required"],
      lifetimeS: 3600,
      claims: {
        agency_context: AGENCY.northPsap,
        username: "dispatcher.north",
        name: "Nora North",
        role: "Dispatcher",
      },
    });
    headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  }

  /** A new set of incidents to load: a used workbench sees new incidents all the time, not one track growing. */
  async function renewIncidents() {
    const next: string[] = [];
    for (let i = 0; i < SOAK_INCIDENTS; i++) {
      const res = await fetch(`${origin}/v1/incidents`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          routingMode: "TokenAgency",
          caller: { phoneNumber: `+479${String(created++).padStart(7, "0")}` },
        }),
      });
      if (res.status !== 201) throw new Error(`create incident: ${res.status} ${await res.text()}`);
      next.push(((await res.json()) as { incidentId: string }).incidentId);
    }
    ids = next;
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
