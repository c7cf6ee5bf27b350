// The embedded reference receiver under load: a v3 delivery (token check, durable
// record with dedupe, answer, then replica processing) and a retried delivery
// (the dedupe path), next to /health, all through the real entry (server/main.ts).
// Runs on a database of its own on TEST_DATABASE_URL's server (the bench mints Publisher tokens
// with the workbench's keys); skipped without it.
import { randomUUID } from "node:crypto";
import { WorkbenchClock } from "../server/platform/clock/clock.ts";
import { createDbClient, type DbClient } from "../server/platform/db/client.ts";
import { SigningKeyStore } from "../server/platform/signing-keys.ts";
import { mintPublisherToken } from "../server/identity/service-tokens.ts";
import { makeSnapshot, NORTH_PSAP } from "../server/reference-receiver/testing/snapshot-fixture.ts";
import { WORKBENCH_ENTRY, load, printTable, startChild, stopChild } from "./lib/load.ts";
import { unprocessedRecordCount } from "../server/reference-receiver/receiver-progress.ts";
import { onExternalDatabase } from "./lib/bench-databases.ts";

export async function run() {
  if (!(await onExternalDatabase("receiver", measure)))
    console.log(
      "\n## Receiver delivery: skipped (set TEST_DATABASE_URL to a PostgreSQL server the bench may create a database on)",
    );
}

async function measure(databaseUrl: string) {
  const port = Number(process.env.BENCH_PORT ?? 3210) + 2;
  const origin = `http://127.0.0.1:${port}`;
  const child = await startChild(
    ...WORKBENCH_ENTRY,
    {
      NODE_ENV: "production",
      PORT: String(port),
      PUBLIC_URL: origin,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    `${origin}/api/health`,
  );
  const db = createDbClient(databaseUrl, { poolSize: 2 });
  try {
    const clock = new WorkbenchClock();
    const keys = new SigningKeyStore({ db, clock });
    const env = { AUTH_URL: origin } as Parameters<typeof mintPublisherToken>[0]["env"];
    const { accessToken } = await mintPublisherToken({ keys, clock, env }, NORTH_PSAP);
    const headers = {
      authorization: `Bearer ${accessToken}`,
      "content-type": "application/json",
      "service-request-timestamp": clock.now().toISOString(),
    };
    const body = JSON.stringify({ incident: makeSnapshot() });
    const target = `${origin}/receivers/north-psap/v3/incidents`;
    await load("warm-up", {
      url: target,
      method: "POST",
      body,
      headers: { ...headers, "service-request-id": "warm-up" },
      seconds: 1,
    });
    const rows = [
      await load("discovery document (calibration, no DB)", { url: `${origin}/.well-known/openid-configuration` }),
      await load("GET /health", { url: `${origin}/receivers/north-psap/health` }),
      await loadUnique("POST /v3/incidents, new Service-Request-Id each", target, body, headers),
    ];
    // Processing follows the answer: it must keep up with recording, not only the answers.
    const catchUp = await processingCatchUp(db);
    rows.push(
      await load("POST /v3/incidents, retried (duplicate)", {
        url: target,
        method: "POST",
        body,
        headers: { ...headers, "service-request-id": "same-id" },
      }),
    );
    printTable("Embedded receiver, 32 connections, 5 s each (token check + durable record + replica processing)", rows);
    console.log(
      `Replica processing after the new-delivery row: ${catchUp.pending} records not yet applied when it ended, ` +
        (catchUp.ms === null ? "still some after 60 s" : `all applied ${catchUp.ms} ms later`),
    );
  } finally {
    await db.$disconnect();
    await stopChild(child);
  }
}

/** How many accepted records wait to be applied to the replica now, and how long until none do (null: not within 60 s). */
async function processingCatchUp(db: DbClient): Promise<{ pending: number; ms: number | null }> {
  const start = performance.now();
  let first: number | null = null;
  while (performance.now() - start < 60_000) {
    const pending = await unprocessedRecordCount(db);
    first ??= pending;
    if (pending === 0) return { pending: first, ms: Math.round(performance.now() - start) };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { pending: first ?? 0, ms: null };
}

/** Each request carries a fresh Service-Request-Id, so every one is recorded and processed. */
async function loadUnique(name: string, url: string, body: string, headers: Record<string, string>) {
  const autocannon = (await import("autocannon")).default;
  const result = await autocannon({
    url,
    connections: 32,
    duration: 5,
    requests: [
      {
        method: "POST",
        body,
        setupRequest: (req) => ({ ...req, headers: { ...headers, "service-request-id": randomUUID() } }),
      },
    ],
  });
  return {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
