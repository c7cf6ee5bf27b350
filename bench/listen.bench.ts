// `workbench listen`'s cost (docs/listen.md): the same receiver (a loopback process) reached
// directly and through a listener (the real CLI, a process of its own, over the workbench's
// WebSocket), in the same run, on the embedded PostgreSQL and, with TEST_DATABASE_URL, that one:
//   1. per-delivery latency: 300 label changes of one incident, one at a time (each committed once
//      the previous is delivered), planned → 200 recorded, and the attempt's own duration;
//   2. one busy incident: 1,000 events of one lane planned first, then drained (a lane is strictly
//      sequential, so this is the listener's round trip in series);
//   3. a bare loop, one request in flight, to the same receiver: the floor of a round trip.
// Loopback only; every phase bounded in count and time.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { once } from "node:events";
import { applyMigrations } from "../server/platform/db/apply-migrations.ts";
import { createDbClient } from "../server/platform/db/client.ts";
import { WorkbenchClock } from "../server/platform/clock/clock.ts";
import { parseEnv } from "../server/platform/env.ts";
import { createLogger } from "../server/platform/logger.ts";
import { SigningKeyStore } from "../server/platform/signing-keys.ts";
import type { Runtime } from "../server/runtime.ts";
import { seedDatabase } from "../prisma/seed.ts";
import { createWorkbenchServer } from "../server/http/create-server.ts";
import { createListenUpgrade } from "../server/http/listen/listen-upgrade.ts";
import { createProtocolApp } from "../server/http/protocol-app.ts";
import { workbenchApiApp } from "../server/http/workbench-api.ts";
import { listenerRegistry } from "../server/webhooks/listen/listener-registry.ts";
import { onEachDatabase } from "./lib/bench-databases.ts";
import { startChild, stopChild } from "./lib/load.ts";
import { startEngine, type Engine } from "./lib/listen-engine.ts";

const SEQUENTIAL = 300;
const BUSY = 1_000;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const round = (n: number) => +n.toFixed(2);

async function measure(label: string, databaseUrl: string, receiverUrl: string, port: number) {
  await applyMigrations(databaseUrl);
  const db = createDbClient(databaseUrl, { poolSize: 16 });
  const clock = new WorkbenchClock();
  const publicUrl = `http://127.0.0.1:${port}`;
  await seedDatabase({ db, clock, publicUrl });
  const runtime: Runtime = {
    env: parseEnv({ NODE_ENV: "production", PUBLIC_URL: publicUrl, DATABASE_URL: databaseUrl }),
    db,
    databaseUrl,
    clock,
    keys: new SigningKeyStore({ db, clock }),
    logger: createLogger({ level: "silent" }),
    databaseMode: "external",
  };
  listenerRegistry().deps = { db, clock };
  const server = createWorkbenchServer({
    env: runtime.env,
    protocolApp: createProtocolApp(runtime),
    workbenchApiApp: workbenchApiApp(runtime),
    listenUpgrade: createListenUpgrade(runtime),
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const engine = await startEngine(runtime, receiverUrl);
  let listener: ChildProcess | undefined;
  try {
    await engine.oneAtATime(10, 100); // unmeasured: JIT, pools and connections warm, as each phase finds them
    const direct = await phases(engine, 0);
    listener = await attachListener(engine, publicUrl, receiverUrl);
    const through = await phases(engine, 1);
    return { label, direct, through };
  } finally {
    if (listener) {
      process.kill(-listener.pid!, "SIGINT");
      await once(listener, "exit");
    }
    await engine.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    listenerRegistry().deps = null;
    await db.$disconnect();
  }
}

async function phases(engine: Engine, pass: number) {
  const sequential = await engine.oneAtATime(2 * pass, SEQUENTIAL);
  const busy = await engine.drainOneIncident(2 * pass + 1, BUSY);
  return {
    "p50 ms": +pct(sequential.latencies, 50).toFixed(2),
    "p99 ms": +pct(sequential.latencies, 99).toFixed(2),
    "attempt p50 ms": pct(sequential.attemptMs, 50),
    "attempt mean ms": round(sequential.attemptMs.reduce((a, b) => a + b, 0) / sequential.attemptMs.length),
    "one incident events/s": busy,
  };
}

/** The real CLI as a process of its own; resolves once attached and the receiver's /about accepted through it. */
async function attachListener(engine: Engine, workbenchUrl: string, receiverUrl: string) {
  const discovered = engine.nextDiscovery();
  const child = spawn(
    "node",
    ["packages/cli/bin/workbench.mjs", "listen", "--integration", "north-psap", "--forward-to", receiverUrl],
    { env: { ...process.env, WORKBENCH_URL: workbenchUrl }, stdio: ["ignore", "ignore", "inherit"], detached: true },
  );
  const status = await discovered;
  if (status !== "active") throw new Error(`discovery through the listener: ${status}`);
  return child;
}

/** One request in flight to the receiver, `count` times: the floor of a delivery's round trip. */
async function bareSequential(receiverUrl: string, count = 2_000) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ label: "label 2" });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = http.request(`${receiverUrl}/v3/incidents/x/label`, { method: "PATCH", agent }, (res) => {
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end(body);
    });
    times.push(performance.now() - t0);
  }
  agent.destroy();
  return { "p50 ms": round(pct(times, 50)), "req/s": Math.round(count / (times.reduce((a, b) => a + b, 0) / 1000)) };
}

export async function run() {
  const base = Number(process.env.BENCH_PORT ?? 3210);
  const receiverUrl = `http://127.0.0.1:${base + 2}`;
  const receiver = await startChild(
    "node",
    ["bench/lib/declaring-receiver.mjs"],
    { PORT: String(base + 2) },
    `${receiverUrl}/`,
  );
  const rows: Array<Awaited<ReturnType<typeof measure>>> = [];
  try {
    const bare = await bareSequential(receiverUrl);
    await onEachDatabase("listen", async (label, url) => {
      rows.push(await measure(label, url, receiverUrl, base + 3));
    });
    console.log(`\n## workbench listen: the same loopback receiver, direct and through a listener (CLI process)`);
    console.table(
      rows.flatMap((r) => [
        { database: r.label, path: "direct", ...r.direct },
        { database: r.label, path: "listener", ...r.through },
        {
          database: r.label,
          path: "added by the listener",
          "p50 ms": round(r.through["p50 ms"] - r.direct["p50 ms"]),
          "p99 ms": round(r.through["p99 ms"] - r.direct["p99 ms"]),
          "attempt p50 ms": r.through["attempt p50 ms"] - r.direct["attempt p50 ms"],
          "attempt mean ms": round(r.through["attempt mean ms"] - r.direct["attempt mean ms"]),
          "one incident events/s": round(r.through["one incident events/s"] / r.direct["one incident events/s"]),
        },
      ]),
    );
    console.log(`bare loop, one request in flight: p50 ${bare["p50 ms"]} ms, ${bare["req/s"]} req/s`);
    console.log("(the last row's events/s is the listener's share of the direct rate)");
  } finally {
    await stopChild(receiver);
  }
}
