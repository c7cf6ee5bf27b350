// `workbench listen` on real processes (docs/listen.md): a shared-mode workbench, whose outbound
// policy refuses loopback, delivers to a receiver on 127.0.0.1 only through the CLI; a listener
// SIGKILLed mid-burst and replaced loses and reorders nothing; a viewer is refused with one line;
// a revoked token detaches within seconds; Ctrl-C gives the integration back to its URL.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildChange, buildSnapshot } from "../webhooks/testing/build-change.ts";
import { waitForEvents } from "../webhooks/testing/webhook-harness.ts";
import { startListenWorkbench, type ListenWorkbench } from "../webhooks/listen/testing/listen-workbench.ts";
import { startLocalReceiver, type LocalReceiver } from "../webhooks/listen/testing/local-receiver.ts";
import { createApiToken, revokeApiToken } from "../workbench/access/api-tokens.ts";

const incidentId = (i: number) => `5d1f0000-0000-4000-8000-${String(700 + i).padStart(12, "0")}`;
let w: ListenWorkbench;
let receiver: LocalReceiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  w = await startListenWorkbench();
  receiver = await startLocalReceiver();
  await w.pointIntegration("north-psap", undefined, { url: receiver.url, insecureDev: true });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) process.kill(-c.pid!, "SIGKILL");
  await w?.close();
  await receiver?.close();
});

const token = async (role: "viewer" | "integrator", name = `ci-${role}`) =>
  (await createApiToken({ ...w.runtime, input: { name, role }, createdBy: "test" })).token;

/** `workbench listen` as a process group of its own, its output collected. */
function listen(apiToken: string, args: string[] = []) {
  const child = spawn(
    "node",
    ["packages/cli/bin/workbench.mjs", ...args, "listen", "--integration", "north-psap", "--forward-to", receiver.url],
    {
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        WORKBENCH_URL: w.url,
        WORKBENCH_TOKEN: apiToken,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  children.push(child);
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out.stderr += d.toString()));
  const attached = until(() => /listening: north-psap|"event":"attached"/.test(out.stdout), 60_000);
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, out, attached, exited };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function commit(id: string, seq: number, label?: string) {
  const change =
    seq === 1
      ? buildChange({ kind: "incident.created" }, buildSnapshot({ id }), { seq, producedAt: w.clock.now() })
      : buildChange({ kind: "labelChanged" }, buildSnapshot({ id, label }), { seq, producedAt: w.clock.now() });
  await w.commit(change);
}

describe("workbench listen", () => {
  it("a loopback receiver refused by the shared policy is delivered to through the listener, as an ordinary attempt", async () => {
    const id = incidentId(0);
    const refused = waitForEvents("delivery:attempted", 1, (e) => e.incidentId === id);
    await commit(id, 1);
    expect((await refused)[0]![0].error).toMatch(/^refused: /);
    expect(receiver.deliveries).toEqual([]);

    const delivered = waitForEvents("delivery:delivered", 1, (e) => e.incidentId === id, 60_000);
    const l = listen(await token("integrator"));
    await l.attached;
    await delivered;
    expect(receiver.discovery).toContain("GET /about");
    const [got] = receiver.deliveries;
    expect(got).toMatchObject({ method: "POST", path: "/v3/incidents" });
    expect(got!.authorization).toMatch(/^Bearer ey/);
    const row = await w.database.db.webhookDelivery.findFirstOrThrow({
      where: { incidentId: id },
      include: { attempts: { orderBy: { attempt: "asc" } } },
    });
    expect(got!.requestId).toBe(row.requestId);
    // Refused by the policy (retried by the rules) while the listener started, then through it.
    const attempts = row.attempts.map((a) => [a.url, a.status, a.error?.slice(0, 8) ?? null]);
    expect(attempts.at(-1)).toEqual(["listen://north-psap/v3/incidents", 200, null]);
    expect(new Set(attempts.slice(0, -1).map(String))).toEqual(new Set([`${receiver.url}/v3/incidents,,refused:`]));
    expect(l.out.stdout).toMatch(/POST\s+\/v3\/incidents\s+200\s+\d+ ms/);
    const attachment = await w.database.db.integrationListener.findUniqueOrThrow({
      where: { integrationKey: "north-psap" },
    });
    expect(attachment).toMatchObject({
      callerName: "ci-integrator",
      callerRole: "integrator",
      remoteAddress: "127.0.0.1",
    });
    process.kill(-l.child.pid!, "SIGKILL");
    await l.exited;
  }, 120_000);

  it("a listener SIGKILLed mid-burst and replaced: nothing lost, nothing reordered", async () => {
    const first = listen(await token("integrator", "burst-1"));
    await first.attached;
    receiver.setDelay(60); // each lane has 3 events to go when 8 arrived: ≥ 180 ms, so the kill lands mid-burst
    const before = receiver.deliveries.length;
    const incidents = [1, 2, 3, 4, 5].map(incidentId);
    const delivered = waitForEvents("delivery:delivered", 25, (e) => incidents.includes(e.incidentId), 120_000);
    for (const id of incidents) for (let seq = 1; seq <= 5; seq++) await commit(id, seq, `L${seq - 1}`);
    await until(() => receiver.deliveries.length >= before + 8);
    process.kill(-first.child.pid!, "SIGKILL");
    await first.exited;
    expect(receiver.deliveries.length - before).toBeLessThan(25); // killed mid-burst
    // Attempts fail while no listener is connected, and are recorded (not lost).
    await until(
      async () => (await w.database.db.webhookAttempt.count({ where: { error: { contains: "listener" } } })) > 0,
    );
    const second = listen(await token("integrator", "burst-2"));
    await second.attached;
    await delivered;

    const rows = await w.database.db.webhookDelivery.findMany({
      where: { incidentId: { in: incidents } },
      orderBy: { id: "asc" },
    });
    expect(rows.map((r) => r.state)).toEqual(Array(25).fill("delivered"));
    const got = receiver.deliveries.slice(before);
    for (const id of incidents) {
      const planned = rows.filter((r) => r.incidentId === id).map((r) => r.requestId);
      // At least once: an attempt cut off with the listener may reach the receiver again (same id).
      const seen = got.filter((d) => planned.includes(d.requestId)).map((d) => d.requestId);
      expect(seen.filter((r, i) => r !== seen[i - 1])).toEqual(planned);
    }
    const failed = await w.database.db.webhookAttempt.findMany({ where: { error: { contains: "listener" } } });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((a) => a.status === null)).toBe(true);
    process.kill(-second.child.pid!, "SIGKILL");
    await second.exited;
    receiver.setDelay(0);
  }, 240_000);

  it("a viewer's token: one clear line, exit 1, nothing attached", async () => {
    await w.database.db.integrationListener.deleteMany();
    const l = listen(await token("viewer"));
    expect(await l.exited).toBe(1);
    expect(l.out.stderr).toBe("workbench: Listening needs the integrator role; ci-viewer has the viewer role.\n");
    expect(await w.database.db.integrationListener.count()).toBe(0);
  }, 60_000);

  it("a revoked token detaches within seconds; Ctrl-C detaches cleanly", async () => {
    const value = await token("integrator", "to-revoke");
    const revoked = listen(value);
    await revoked.attached;
    const { id } = await w.database.db.workbenchApiToken.findFirstOrThrow({ where: { name: "to-revoke" } });
    await revokeApiToken({ ...w.runtime, id });
    const started = performance.now();
    expect(await revoked.exited).toBe(1);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(revoked.out.stderr).toMatch(/^workbench: The API token was refused/);
    expect(await w.database.db.integrationListener.count()).toBe(0);

    const l = listen(await token("integrator", "ctrl-c"), ["--json"]);
    await until(() => /"event":"attached"/.test(l.out.stdout), 60_000);
    expect(await w.database.db.integrationListener.count()).toBe(1);
    process.kill(-l.child.pid!, "SIGINT");
    expect(await l.exited).toBe(0);
    expect(l.out.stdout).toMatch(/"event":"detached"/);
    expect(await w.database.db.integrationListener.count()).toBe(0);
  }, 120_000);
});
