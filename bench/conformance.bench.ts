// A whole conformance run through the real entry (server/main.ts, tRPC start +
// polling as the CLI does) against the correct fixture receiver on loopback:
// how long an integrator waits for a verdict, and what the kit itself costs
// per request next to the receiver's own answer times.
import { createWorkbenchClient } from "../server/cli/client.ts";
import { startFixtureReceiver } from "../server/conformance/testing/fixture-receiver.ts";
import { WORKBENCH_ENTRY, startChild, stopChild } from "./lib/load.ts";
import { median } from "./lib/median.ts";

const RUNS = 5;

export async function run() {
  const port = Number(process.env.BENCH_PORT ?? 3210) + 2;
  const origin = `http://localhost:${port}`;
  const workbench = await startChild(
    ...WORKBENCH_ENTRY,
    {
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: ".data/bench",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    `${origin}/api/health`,
  );
  const receiver = await startFixtureReceiver({ authUrl: origin, agencyId: "0b0c5b52-1c0e-4a57-9a57-000000000001" });
  const client = createWorkbenchClient(origin);
  try {
    const rows = [];
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      // The fixture receiver is plain http on loopback: marked insecure-dev, as `--insecure-dev` does.
      const { id } = await client.conformance.start.mutate({ receiverUrl: receiver.url, insecureDev: true });
      let result = await client.conformance.get.query({ id });
      while (result.status === "running") {
        await new Promise((r) => setTimeout(r, 50));
        result = await client.conformance.get.query({ id });
      }
      const wallMs = Math.round(performance.now() - started);
      const requests = receiver.events.splice(0).length;
      if (i === 0) continue; // warm-up: JIT, key import, JWKS fetch by the receiver
      rows.push({
        run: i,
        verdict: result.status,
        "wall ms": wallMs,
        "sum of check ms": result.results.reduce((s, r) => s + r.ms, 0),
        checks: result.results.length,
        "accepted event requests": requests,
      });
    }
    console.log(
      `\n## Conformance run against a correct receiver on loopback (${RUNS} runs after a warm-up; 50 ms polling as the CLI)`,
    );
    console.table(rows);
    console.log(`median wall time ${median(rows.map((r) => r["wall ms"]))} ms`);
  } finally {
    await receiver.close();
    await stopChild(workbench);
  }
}
