// The workbench rides out its database going away (docs/decisions/0055), on real processes: a
// headless workbench (every worker, the real HTTP surfaces) in a child process, a burst of changes
// on 8 incidents over /v1, and mid-burst the database is taken away:
// - embedded project: the child's own embedded PostgreSQL, its postmaster SIGKILLed (the child
//   starts it again by itself);
// - external project: a TCP proxy the test owns between the child and the shared server is cut
//   and refuses for 3 s, and the test database's backends are terminated (a server restart as the
//   workbench sees it; the shared server itself is never touched).
// While it is down every surface answers 503 at once in its own format; afterwards every change
// acknowledged with 2xx reaches an independent receiver (a recording HTTP server in this test),
// in order per incident, and the child is the same process.
import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { createDbClient, type DbClient } from "../platform/db/client.ts";
import { withDatabase } from "../platform/db/open-database.ts";
import { postmasterPid } from "../platform/db/postmaster-process.ts";
import { startHeadlessChild, waitFor, type HeadlessChild } from "../platform/db/testing/headless-child.ts";
import { startTcpProxy, type TcpProxy } from "../platform/db/testing/tcp-proxy.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { startRecordingReceiver, type RecordingReceiver } from "../webhooks/testing/recording-receiver.ts";
import { V3_FLAGS } from "../webhook-contracts/v3/capability-flags.ts";
import { defaultDeclaration } from "../reference-receiver/capabilities.ts";
import { ALL_INBOUND_SCOPES } from "../testing/inbound-tokens.ts";
import { USERNAME_REQUIRED_SCOPE } from "../identity/scopes.ts";
import { AGENCY } from "../../prisma/seed.ts";

const mode = inject("testDatabaseMode");
const INCIDENTS = 8;
const STEPS = 12;

let child: HeadlessChild;
let receiver: RecordingReceiver;
let db: DbClient;
let dataDir: string | undefined;
let database: TestDatabase | undefined;
let proxy: TcpProxy | undefined;

beforeAll(async () => {
  // A failed attempt makes the workbench read a partner's /about again: it must keep declaring v3.
  receiver = await startRecordingReceiver({ about: defaultDeclaration() });
  if (mode === "embedded") {
    // A cluster of the child's own: the run's shared test cluster is never killed.
    dataDir = await mkdtemp(path.join(os.tmpdir(), "workbench-outage-"));
    await chmod(dataDir, 0o711);
    child = await startHeadlessChild({ DATA_DIR: dataDir, RESTART_ATTEMPTS: "3" });
    db = createDbClient(await child.embeddedUrl(), { poolSize: 4 });
  } else {
    database = await createTestDatabase();
    const target = new URL(database.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    child = await startHeadlessChild({ DATABASE_URL: viaProxy.toString() });
    db = database.db;
  }
  // Discovery accepts the embedded receiver's declaration first; then north-psap points at ours.
  await waitFor(
    async () =>
      (await db.webhookCapabilities.count({ where: { integrationKey: "north-psap", status: "active" } })) === 1,
    "north-psap's declaration",
  );
  await db.integration.update({ where: { key: "north-psap" }, data: { receiverUrl: receiver.url, insecureDev: true } });
  const now = new Date();
  await db.webhookCapabilities.update({
    where: { integrationKey: "north-psap" },
    data: { flags: [...V3_FLAGS], nextCheckAt: new Date(now.getTime() + 3600_000) },
  });
  // The delivery worker reads an integration's target at most once a second (load-delivery-target.ts).
  await new Promise((r) => setTimeout(r, 1_500));
}, 120_000);

afterAll(async () => {
  await child?.stop();
  await receiver?.close();
  if (mode === "embedded") await db?.$disconnect();
  await proxy?.close();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function token(): Promise<string> {
  const res = await fetch(`${child.url}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: "partner-cad",
      client_secret: "partner-cad-secret",
      scope: [...ALL_INBOUND_SCOPES, USERNAME_REQUIRED_SCOPE].join(" "),
      agency_context: AGENCY.northPsap,
      username: "dispatcher.north",
    }),
  });
  const body = (await res.json()) as { access_token: string };
  expect(res.status).toBe(200);
  return body.access_token;
}

type Answer = { status: number; ms: number; body: Record<string, unknown>; type: string; retryAfter: string | null };

async function call(method: string, url: string, init: { token?: string; body?: unknown; form?: boolean } = {}) {
  const started = performance.now();
  const res = await fetch(url, {
    method,
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined
        ? {}
        : { "content-type": init.form ? "application/x-www-form-urlencoded" : "application/json" }),
    },
    body: init.body === undefined ? undefined : init.form ? String(init.body) : JSON.stringify(init.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    ms: performance.now() - started,
    body: (text.startsWith("{") ? JSON.parse(text) : { text }) as Record<string, unknown>,
    type: res.headers.get("content-type") ?? "",
    retryAfter: res.headers.get("retry-after"),
  } satisfies Answer;
}

/** Takes the database away the way this project can: SIGKILL of the embedded postmaster, or the proxy's "restart". */
async function takeDatabaseAway(): Promise<{ restored: Promise<void> }> {
  if (mode === "embedded") {
    const pid = await postmasterPid(child.pgdata);
    process.kill(pid!, "SIGKILL");
    return { restored: Promise.resolve() };
  }
  const restored = proxy!.restart(3_000);
  const admin = new pg.Client({ connectionString: withDatabase(database!.url, "postgres") });
  await admin.connect();
  await admin.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [database!.name],
  );
  await admin.end();
  return { restored };
}

describe(`the database goes away mid-burst (${mode})`, () => {
  it("every surface answers 503 at once while it is down; every acknowledged change is delivered in order after", async () => {
    const bearer = await token();
    const pidBefore = child.child.pid;
    const postmasterBefore = mode === "embedded" ? await postmasterPid(child.pgdata) : null;
    const ids = await Promise.all(
      Array.from({ length: INCIDENTS }, async (_, i) => {
        const a = await call("POST", `${child.url}/v1/incidents`, {
          token: bearer,
          body: {
            routingMode: "TokenAgency",
            requestedIncidentId: randomUUID(),
            caller: { phoneNumber: "+4795512345" },
            label: `outage ${i}`,
          },
        });
        expect(a.status).toBe(201);
        return a.body.incidentId as string;
      }),
    );

    const acknowledged = ids.map(() => [] as number[]);
    const refused: Answer[] = [];
    const slowest = { ms: 0 };
    let outage: { at: number; restored: Promise<void> } | undefined;
    let recoveredAt: number | undefined;
    const afterRecovery = ids.map(() => 0);
    const burst = ids.map(async (id, i): Promise<void> => {
      for (let k = 1; k <= STEPS || afterRecovery[i]! < 2; k++) {
        if (k > 200) throw new Error("the database never came back");
        const a = await call("PATCH", `${child.url}/v1/incidents/${id}/summary`, {
          token: bearer,
          body: { summary: `i${i}-s${k}` },
        });
        slowest.ms = Math.max(slowest.ms, a.ms);
        if (a.status === 200) {
          acknowledged[i]!.push(k);
          if (recoveredAt !== undefined) afterRecovery[i]!++;
        } else {
          refused.push(a);
          await new Promise((r) => setTimeout(r, 100));
        }
        // Mid-burst: once a third of the steps are acknowledged, the database goes away.
        if (!outage && acknowledged.flat().length >= (INCIDENTS * STEPS) / 3)
          outage = { at: performance.now(), ...(await takeDatabaseAway()) };
      }
    });

    const burstDone = Promise.all(burst);
    burstDone.catch(() => {}); // awaited below; a failure before then is the test's, not unhandled
    // While it is down: health says so within seconds, and each surface answers 503 in its format.
    await waitFor(() => outage !== undefined, "the burst to reach the outage", 60_000);
    let down: Awaited<ReturnType<HeadlessChild["health"]>> | undefined;
    await waitFor(
      async () => {
        const h = await child.health();
        if (h.status === 503) down = h;
        return down !== undefined;
      },
      "/api/health to report the database down",
      10_000,
    );
    const detectedAt = performance.now();
    expect(detectedAt - outage!.at).toBeLessThan(5_000);
    expect(down!.body).toMatchObject({ status: "unavailable", ready: false });
    const surfaces = await Promise.all([
      call("POST", `${child.url}/connect/token`, {
        form: true,
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: "partner-cad", client_secret: "x" }),
      }),
      call("GET", `${child.url}/receivers/no-such-receiver/health`),
      call("GET", `${child.url}/api/trpc/directory.list`),
      call("GET", `${child.url}/v1/agency/info`, { token: bearer }),
    ]);
    const [tokenAnswer, receiverAnswer, trpcAnswer, v1Answer] = surfaces;

    await outage!.restored;
    await waitFor(async () => (await child.health()).status === 200, "the database to come back", 60_000);
    recoveredAt = performance.now();
    await burstDone;

    // The surfaces, each in its own format, fast, never 500.
    if (tokenAnswer.status === 503)
      expect([tokenAnswer.body.error, tokenAnswer.retryAfter]).toEqual(["temporarily_unavailable", "5"]);
    if (receiverAnswer.status === 503) expect(receiverAnswer.retryAfter).toBe("5");
    if (trpcAnswer.status === 503)
      expect(trpcAnswer.body).toMatchObject({
        error: { json: { data: { code: "SERVICE_UNAVAILABLE", appCode: "DatabaseUnavailable", httpStatus: 503 } } },
      });
    if (v1Answer.status === 503) {
      expect(v1Answer.type).toBe("application/problem+json");
      // The spec's code for "request could not be completed", with 503 and Retry-After (decision 0064).
      expect([v1Answer.body.code, v1Answer.retryAfter]).toEqual(["InternalServerError", "5"]);
    }
    // At least the surfaces that must read the database answered 503 (a cached token client may still answer 401).
    expect([receiverAnswer.status, trpcAnswer.status, v1Answer.status]).toEqual([503, 503, 503]);
    for (const a of [...surfaces, ...refused]) expect(a.ms).toBeLessThan(8_000);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect([a.status, a.type, a.body.code, a.retryAfter]).toEqual([
        503,
        "application/problem+json",
        "InternalServerError",
        "5",
      ]);
    }
    expect(slowest.ms).toBeLessThan(8_000);

    // Every acknowledged change reaches the receiver, in order per incident (a redelivery of one
    // Service-Request-Id counted once; a refused change may have committed: it may appear, in order).
    const delivered = () =>
      ids.map((id, i) => {
        const seen = new Set<string>();
        const steps: number[] = [];
        for (const r of receiver.received) {
          if (r.incidentId !== id) continue;
          const key = String(r.headers["service-request-id"]);
          if (seen.has(key)) continue;
          seen.add(key);
          const m = new RegExp(`"i${i}-s(\\d+)"`).exec(JSON.stringify(r.body));
          if (m) steps.push(Number(m[1]));
        }
        return steps;
      });
    await waitFor(
      () => delivered().every((steps, i) => acknowledged[i]!.every((k) => steps.includes(k))),
      "every acknowledged change at the receiver",
      Number(process.env.OUTAGE_DEBUG_WAIT ?? 90_000),
    ).catch(async (error: Error) => {
      const got = delivered();
      const missing = acknowledged.map((ks, i) => ks.filter((k) => !got[i]!.includes(k)));
      const rows = await db.webhookDelivery.findMany({
        where: { incidentId: { in: ids }, integrationKey: "north-psap" },
        select: {
          incidentId: true,
          state: true,
          eventName: true,
          attemptCount: true,
          claimedBy: true,
          leaseExpiresAt: true,
          nextAttemptAt: true,
          attempts: { select: { attempt: true, status: true, error: true, durationMs: true } },
        },
        orderBy: { id: "asc" },
      });
      const all = await db.webhookDelivery.groupBy({ by: ["integrationKey", "state"], _count: true });
      const incidents = await db.incident.count({ where: { id: { in: ids } } });
      const capabilities = await db.webhookCapabilities.findUnique({
        where: { integrationKey: "north-psap" },
        select: { status: true, error: true, nextCheckAt: true },
      });
      console.log(
        JSON.stringify({
          all,
          incidents,
          ids,
          capabilities,
          delivering: rows.filter((r) => r.state !== "delivered"),
          warnings: child.logs.filter((l) => (l.level as number) >= 40 && typeof l.status !== "number"),
        }),
      );
      const states = rows.reduce<Record<string, number>>((m, r) => ({ ...m, [r.state]: (m[r.state] ?? 0) + 1 }), {});
      throw new Error(
        `${error.message}: missing ${JSON.stringify(missing)}; acknowledged ${JSON.stringify(acknowledged)}; delivered ${JSON.stringify(got)}; rows ${JSON.stringify(states)}`,
      );
    });
    const allDeliveredAt = performance.now();
    console.info(
      JSON.stringify({
        mode,
        detectedMs: Math.round(detectedAt - outage!.at),
        backMs: Math.round(recoveredAt - outage!.at),
        allDeliveredMs: Math.round(allDeliveredAt - outage!.at),
        acknowledged: acknowledged.flat().length,
        refused: refused.length,
        slowestMs: Math.round(slowest.ms),
      }),
    );
    for (const [i, steps] of delivered().entries()) {
      expect(steps, `incident ${i} in order`).toEqual([...steps].sort((a, b) => a - b));
      expect(new Set(steps).size, `incident ${i} without a second copy of a change`).toBe(steps.length);
    }
    expect(receiver.maxConcurrentPerIncident).toBe(1);

    // The same process carried on; the embedded server is a new postmaster on the same data directory.
    expect(child.child.exitCode).toBe(null);
    expect(child.child.pid).toBe(pidBefore);
    if (mode === "embedded") expect(await postmasterPid(child.pgdata)).not.toBe(postmasterBefore);
    // One line says the outage began, one that it ended; no 500 anywhere.
    expect(child.logs.filter((l) => String(l.msg).startsWith("database unavailable")).length).toBe(1);
    expect(child.logs.filter((l) => l.msg === "database available again").length).toBe(1);
    expect(child.logs.filter((l) => l.status === 500)).toEqual([]);
    // At warning level, the outage is the watch's one line (and, embedded, the restart's): not one a worker.
    const warnings = child.logs.filter((l) => (l.level as number) >= 40 && typeof l.status !== "number");
    expect(warnings.map((l) => l.msg)).toEqual(
      mode === "embedded"
        ? [
            expect.stringMatching(/^database unavailable/),
            "embedded PostgreSQL stopped; starting it again on the same data directory",
          ]
        : [expect.stringMatching(/^database unavailable/)],
    );
  }, 240_000);

  it.skipIf(mode !== "embedded")(
    "a crashed backend: the postmaster resets every connection, and the workbench carries on",
    async () => {
      const postmaster = await postmasterPid(child.pgdata);
      const [backend] = await db.$queryRaw<
        Array<{ pid: number }>
      >`SELECT pid FROM pg_stat_activity WHERE application_name = 'workbench database watch'`;
      const outagesBefore = child.logs.filter((l) => String(l.msg).startsWith("database unavailable")).length;
      process.kill(backend!.pid, "SIGKILL");
      await waitFor(
        () => child.logs.filter((l) => String(l.msg).startsWith("database unavailable")).length > outagesBefore,
        "the watch to see the reset",
        10_000,
      );
      await waitFor(async () => (await child.health()).status === 200, "the database after its reset", 30_000);
      const a = await call("POST", `${child.url}/v1/incidents`, {
        token: await token(),
        body: { routingMode: "TokenAgency", requestedIncidentId: randomUUID(), caller: { phoneNumber: "+4795512345" } },
      });
      expect(a.status).toBe(201);
      expect(await postmasterPid(child.pgdata)).toBe(postmaster);
      expect(child.child.exitCode).toBe(null);
    },
    60_000,
  );

  it.skipIf(mode !== "embedded")(
    "an embedded server that cannot start again: one line says why, and the process exits non-zero",
    async () => {
      const state = new URL(await child.embeddedUrl());
      process.kill((await postmasterPid(child.pgdata))!, "SIGKILL");
      // Something else takes its port: every restart fails. The watch restarts the server as soon as it
      // sees the postmaster gone, so the port is tried again at once, not at a polling interval.
      const squatter = net.createServer();
      const takePort = () =>
        new Promise<boolean>((resolve) => {
          squatter.once("error", () => resolve(false));
          squatter.listen(Number(state.port), "127.0.0.1", () => resolve(true));
        });
      const deadline = performance.now() + 5_000;
      while (!(await takePort())) {
        if (performance.now() > deadline) throw new Error("timed out waiting for the port to free");
        await new Promise((resolve) => setImmediate(resolve));
      }
      try {
        expect(await child.exited).toBe(1);
      } finally {
        squatter.close();
      }
      const fatal = child.logs.filter((l) => l.level === 60);
      expect(fatal).toHaveLength(1);
      // The reason is PostgreSQL's own: its port is taken.
      expect(String(fatal[0]!.msg)).toMatch(
        /^the workbench stops: the embedded PostgreSQL could not be started again after 3 attempts: could not create any TCP\/IP sockets/,
      );
      expect(child.logs.at(-1)).toBe(fatal[0]);
    },
    60_000,
  );
});
