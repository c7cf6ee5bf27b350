// One attempt per incident in flight, against a receiver that trickles its answer a byte a
// second: with an idle timeout the attempt stayed open past its lease and a second worker sent
// the same head beside it. With a total deadline shorter than the lease, the attempt ends at
// the deadline and the next one starts only after it closed.
import net, { type AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { startWebhookHarness, waitForEvents, type WebhookHarness } from "../testing/webhook-harness.ts";
import { startDeliveryWorker } from "./delivery-worker.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";

const ID = "5d1f0000-0000-4000-8000-0000000000d1";
let h: WebhookHarness | undefined;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await h?.close();
  h = undefined;
});

type Connection = { requestId: string | null; openedAt: number; closedAt: number | null };

async function startTricklingReceiver() {
  const connections: Connection[] = [];
  const sockets = new Set<net.Socket>();
  const answer = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
  const server = net.createServer((socket) => {
    const c: Connection = { requestId: null, openedAt: performance.now(), closedAt: null };
    connections.push(c);
    sockets.add(socket);
    let head = "";
    socket.on("data", (d) => {
      head += d.toString("latin1");
      c.requestId ??= /service-request-id: ([0-9a-f-]{36})/i.exec(head)?.[1] ?? null;
    });
    let i = 0;
    const timer = setInterval(
      () => (i < answer.length && !socket.destroyed ? socket.write(answer[i++]!) : clearInterval(timer)),
      1_000,
    );
    socket.on("close", () => {
      clearInterval(timer);
      c.closedAt = performance.now();
      sockets.delete(socket);
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections };
}

it("a trickling receiver: each attempt ends at its total deadline, and no second worker sends the head while one is open", async () => {
  h = await startWebhookHarness();
  const receiver = await startTricklingReceiver();
  await h.pointIntegration("north-psap", ["incident.created"], { url: receiver.url, insecureDev: true });
  const timeoutMs = 1_500;
  const leaseMs = 2_500; // past it, a second worker re-claims a head it takes for abandoned
  const attempted = waitForEvents("delivery:attempted", 2, (e) => e.incidentId === ID, 20_000);
  for (const workerId of ["w1", "w2"]) {
    const worker = await startDeliveryWorker(h.runtime, { cutOverLane, workerId, timeoutMs, leaseMs });
    cleanups.push(() => worker.stop());
  }
  await h.commit(buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID }), { producedAt: h.clock.now() }));
  const attempts = (await attempted).map(([e]) => e);

  expect(attempts.map((a) => [a.attempt, a.status, a.error])).toEqual([
    [1, null, `timeout: no response within ${timeoutMs} ms`],
    [2, null, `timeout: no response within ${timeoutMs} ms`],
  ]);
  for (const a of attempts) expect(a.durationMs).toBeLessThan(leaseMs);
  const [first, second] = receiver.connections;
  expect([first?.requestId, second?.requestId]).toEqual([attempts[0]!.requestId, attempts[0]!.requestId]);
  // The first connection closed (at its deadline, well inside the lease) before the second opened.
  expect(first!.closedAt).not.toBeNull();
  expect(first!.closedAt! - first!.openedAt).toBeLessThan(leaseMs);
  expect(second!.openedAt).toBeGreaterThan(first!.closedAt!);
  const attemptsRecorded = await h.database.db.webhookAttempt.findMany({ orderBy: { attempt: "asc" } });
  expect(attemptsRecorded.map((a) => a.error)).toEqual([
    `timeout: no response within ${timeoutMs} ms`,
    `timeout: no response within ${timeoutMs} ms`,
  ]);
});
