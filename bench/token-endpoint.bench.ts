// POST /connect/token, client_credentials, through the real entry (server/main.ts:
// embedded PostgreSQL, Hono beside Next): tokens per second and p99. Three rows:
//  - the partner-cad application token (secret verified once, then remembered:
//    server/identity/authenticate-client.ts),
//  - a user-context token (agency + username: one more user lookup),
//  - a wrong secret, which is never remembered and pays scrypt (N=2^14) every
//    time: the cost the verified-secret cache removes from the happy path.
import { WORKBENCH_ENTRY, load, printTable, startChild, stopChild } from "./lib/load.ts";

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const CAD = { grant_type: "client_credentials", client_id: "partner-cad", client_secret: "partner-cad-secret" };

export async function run() {
  const port = Number(process.env.BENCH_PORT ?? 3210) + 2;
  const workbench = await startChild(
    ...WORKBENCH_ENTRY,
    {
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: ".data/bench",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    `http://127.0.0.1:${port}/api/health`,
  );
  try {
    const url = `http://127.0.0.1:${port}/connect/token`;
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const post = (name: string, fields: Record<string, string>, seconds = 5) =>
      load(name, { url, method: "POST", headers, body: form(fields), seconds });
    await post("warm-up", { ...CAD, scope: "agency.read" }, 1);
    const rows = [
      await post("application token (agency.read, agency_context)", {
        ...CAD,
        scope: "agency.read",
        agency_context: "0b0c5b52-1c0e-4a57-9a57-000000000001",
      }),
      await post("user-context token (username.required + username)", {
        ...CAD,
        scope: "username.required incident.create",
        agency_context: "0b0c5b52-1c0e-4a57-9a57-000000000001",
        username: "dispatcher.north",
      }),
      await post("wrong secret: 401, scrypt every time", { ...CAD, client_secret: "wrong", scope: "agency.read" }, 3),
    ];
    printTable(
      "POST /connect/token client_credentials, 32 connections (tokens/s = req/s of 2xx rows)",
      rows,
      "Measured apart: jose RS256 signing ~0.4 ms/token; the rest is the client lookup (Prisma) and HTTP. Without the verified-secret cache every token would cost the scrypt of the last row.",
    );
  } finally {
    await stopChild(workbench);
  }
}
