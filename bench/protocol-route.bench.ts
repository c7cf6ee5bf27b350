// A trivial protocol route (GET /.well-known/openid-configuration) through the
// real entry (server/main.ts: embedded PostgreSQL, Hono beside Next), next to a
// bare node:http handler measured in the same run.
import { WORKBENCH_ENTRY, load, printTable, startChild, stopChild } from "./lib/load.ts";

export async function run() {
  const workbenchPort = Number(process.env.BENCH_PORT ?? 3210);
  const barePort = workbenchPort + 1;
  const bare = await startChild(
    "node",
    ["bench/lib/bare-server.mjs"],
    { PORT: String(barePort) },
    `http://127.0.0.1:${barePort}/`,
  );
  const workbench = await startChild(
    ...WORKBENCH_ENTRY,
    {
      NODE_ENV: "production",
      PORT: String(workbenchPort),
      DATA_DIR: ".data/bench",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    `http://127.0.0.1:${workbenchPort}/api/health`,
  );
  try {
    const path = "/.well-known/openid-configuration";
    await load("warm-up", { url: `http://127.0.0.1:${workbenchPort}${path}`, seconds: 1 });
    const rows = [
      await load("bare node:http", { url: `http://127.0.0.1:${barePort}${path}` }),
      await load("workbench (Hono via main.ts)", { url: `http://127.0.0.1:${workbenchPort}${path}` }),
    ];
    printTable(
      "Trivial protocol route, 32 connections, 5 s each",
      rows,
      `workbench / bare = ${(rows[1]!.rps / rows[0]!.rps).toFixed(2)} (same run; the load generator shares the 2 cores)`,
    );
  } finally {
    await stopChild(workbench);
    await stopChild(bare);
  }
}
