// POST /connect/token, client_credentials, through the real entry (server/main.ts:
// embedded PostgreSQL, Hono beside Next): tokens per second and p99. Three rows:
//  - the partner-cad application token (secret verified once, then remembered:
//    server/identity/authenticate-client.ts),
//  - a user-context token (agency + username: one more user lookup),
//  - the scrypt check of a secret (N=2^14) in this process: the cost the verified-secret
//    cache removes from the happy path (a wrong secret over HTTP would now be made to wait).
// Each HTTP row also splits its CPU per token between the server, PostgreSQL and the
// load generator (lib/cpu-split.ts).
import { generateKeyPair, SignJWT } from "jose";
import { WORKBENCH_ENTRY, load, printTable, startChild, stopChild, type LoadResult } from "./lib/load.ts";
import { hashClientSecret, verifyClientSecret } from "../server/identity/client-secret.ts";

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
      load(name, { url, method: "POST", headers, body: form(fields), seconds, connections: 16, cpuOf: workbench });
    await post("warm-up", { ...CAD, scope: "agency.read" }, 1);
    const rows = [
      await bareSigningLoop(),
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
      await scryptLoop(),
    ];
    printTable(
      "POST /connect/token client_credentials, 16 connections (tokens/s = req/s of 2xx rows)",
      rows,
      "target (docs/performance.md): application tokens ≥ 0.5 × the bare signing loop's rate in the same run, p99 < 25 ms. Without the verified-secret cache every token would cost the scrypt of the last row.",
    );
  } finally {
    await stopChild(workbench);
  }
}

/**
 * The ceiling: jose signing RS256 tokens of the same shape in this process, 16 at a time (like the
 * 16 connections above), for 3 s: what the endpoint would do if HTTP, the form and the client lookup
 * cost nothing.
 */
async function bareSigningLoop(): Promise<LoadResult> {
  const { privateKey } = await generateKeyPair("RS256");
  const sign = () =>
    new SignJWT({
      scope: "agency.read",
      client_id: "partner-cad",
      agency_context: "0b0c5b52-1c0e-4a57-9a57-000000000001",
    })
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: "bench" })
      .setIssuer("http://127.0.0.1")
      .setSubject("partner-cad")
      .setAudience("http://127.0.0.1/v1")
      .setIssuedAt()
      .setExpirationTime("1h")
      .setJti(crypto.randomUUID())
      .sign(privateKey);
  return inProcessLoop("bare RS256 signing loop (jose, 16 at a time, no HTTP)", sign);
}

/**
 * What one token would cost without the verified-secret cache: the scrypt check of a secret
 * (N=2^14) in this process, 16 at a time. Measured here, not as wrong secrets over HTTP: the
 * endpoint now makes a guesser wait after a few failures (decision 0051).
 */
async function scryptLoop(): Promise<LoadResult> {
  const stored = await hashClientSecret("partner-cad-secret");
  return inProcessLoop("scrypt check of a secret (no HTTP): a token's cost without the cache", () =>
    verifyClientSecret("wrong", stored),
  );
}

/** `op` 16 at a time for 3 s in this process, as a row of the table. */
async function inProcessLoop(name: string, op: () => Promise<unknown>): Promise<LoadResult> {
  const until = performance.now() + 3_000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await op();
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return {
    name,
    requests: latencies.length,
    rps: Math.round(latencies.length / 3),
    p50: at(0.5),
    p99: at(0.99),
    errors: 0,
    non2xx: 0,
  };
}
