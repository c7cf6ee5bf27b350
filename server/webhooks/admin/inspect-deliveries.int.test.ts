// The inspector's keyset pages and one delivery in full, on a database holding
// a synthetic history plus one real delivery planned by the engine.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { insertSyntheticDeliveries } from "../testing/insert-synthetic-deliveries.ts";
import { inspectDeliveries } from "./inspect-deliveries.ts";
import { describeDelivery } from "./describe-delivery.ts";

let t: TestDatabase;
const until = new Date(Date.UTC(2026, 10, 22, 7, 0, 0));
beforeAll(async () => {
  t = await createTestDatabase();
  await insertSyntheticDeliveries({ db: t.db, count: 1_000, incidents: 50, until });
});
afterAll(async () => t.drop());

describe("inspectDeliveries", () => {
  it("walks every row newest first in keyset pages without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof inspectDeliveries>> = await inspectDeliveries({
        db: t.db,
        input: { cursor, limit: 200 },
      });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(1_000);
    expect(new Set(seen).size).toBe(1_000);
    const ids = seen.map(BigInt);
    expect(ids.every((id, i) => i === 0 || id < ids[i - 1]!)).toBe(true);
  });

  it("filters by integration, incident, state and search, and returns attempts for the timeline", async () => {
    const north = await inspectDeliveries({ db: t.db, input: { integration: "central-ems", limit: 50 } });
    expect(north.items.every((i) => i.integration === "central-ems")).toBe(true);
    const first = north.items[0]!;
    const lane = await inspectDeliveries({ db: t.db, input: { incidentId: first.incidentId } });
    expect(lane.items).toHaveLength(20);
    expect(lane.nextCursor).toBeNull();
    const pending = await inspectDeliveries({ db: t.db, input: { state: "pending" } });
    expect(pending.items.map((i) => i.state)).toEqual(Array(10).fill("pending"));
    const expired = await inspectDeliveries({ db: t.db, input: { state: "expired", limit: 4 } });
    expect(expired.items.map((i) => i.state)).toEqual(Array(4).fill("expired"));
    const rest = await inspectDeliveries({ db: t.db, input: { state: "expired", cursor: expired.nextCursor } });
    expect([...expired.items, ...rest.items].map((i) => BigInt(i.id))).toEqual(
      [...Array(10).keys()].map((k) => BigInt(955 - 100 * k)),
    );
    const delivered = await inspectDeliveries({ db: t.db, input: { state: "delivered", limit: 200 } });
    expect(delivered.items.every((i) => i.state === "delivered")).toBe(true);
    expect(delivered.items).toHaveLength(200);
    const byRequest = await inspectDeliveries({ db: t.db, input: { search: first.requestId.toUpperCase() } });
    expect(byRequest.items.map((i) => i.requestId)).toEqual([first.requestId]);
    const created = await inspectDeliveries({ db: t.db, input: { search: "CREATED", limit: 200 } });
    expect(created.items.length).toBeGreaterThan(100);
    expect(created.items.every((i) => i.event === "incident.created")).toBe(true);
    const retried = created.items.concat(north.items).find((i) => i.attempts.length === 2)!;
    expect(retried.attempts.map((a) => a.status)).toEqual([503, 200]);
  });

  it("finds ids by their 8-character short form, and filters by attempt status, failures and time", async () => {
    const [one] = (await inspectDeliveries({ db: t.db, input: { state: "expired", limit: 1 } })).items;
    const short = one!.requestId.slice(0, 8);
    const found = await inspectDeliveries({ db: t.db, input: { search: short.toUpperCase() } });
    expect(found.items.map((i) => i.requestId)).toContain(one!.requestId);
    expect(found.items.every((i) => i.requestId.startsWith(short) || i.incidentId.startsWith(short))).toBe(true);
    const lane = await inspectDeliveries({ db: t.db, input: { incidentId: one!.incidentId.slice(0, 8) } });
    expect(lane.items).toHaveLength(20);
    expect(lane.items.every((i) => i.incidentId === one!.incidentId)).toBe(true);
    const failed = await inspectDeliveries({ db: t.db, input: { failedOnly: true, limit: 200 } });
    // Every tenth was retried after a 503 (99: the 1000th is still pending) and every hundredth (at 55) expired after one.
    expect(failed.items).toHaveLength(109);
    expect(failed.items.every((i) => i.attempts.some((a) => a.status !== 200))).toBe(true);
    const by503 = await inspectDeliveries({ db: t.db, input: { status: 503, limit: 200 } });
    expect(by503.items.map((i) => i.id)).toEqual(failed.items.map((i) => i.id));
    expect((await inspectDeliveries({ db: t.db, input: { status: 404 } })).items).toEqual([]);
    const recent = await inspectDeliveries({ db: t.db, input: { within: "15m", limit: 200 }, now: until });
    expect(recent.items).toHaveLength(200);
    const older = await inspectDeliveries({ db: t.db, input: { within: "15m", cursor: "100" }, now: until });
    expect(older.items).toEqual([]); // produced one second apart up to `until`: row 100 is 900 s before it
    const window = await inspectDeliveries({
      db: t.db,
      input: { producedFrom: new Date(until.getTime() - 9_000).toISOString(), producedTo: until.toISOString() },
    });
    expect(window.items).toHaveLength(10);
  });

  it("says which head an unattempted pending event waits behind, from one lookup per page", async () => {
    const [newest] = (await inspectDeliveries({ db: t.db, input: { state: "pending", limit: 1 } })).items;
    const alone = await inspectDeliveries({ db: t.db, input: { incidentId: newest!.incidentId } });
    expect(alone.items.find((i) => i.id === newest!.id)!.waitingBehind).toBeNull();
    // Make an earlier event of the same lane unfinished: the newest now waits behind it.
    const earlier = alone.items.find((i) => i.integration === newest!.integration && i.id !== newest!.id)!;
    await t.db.webhookDelivery.update({ where: { requestId: earlier.requestId }, data: { state: "pending" } });
    try {
      const lane = await inspectDeliveries({ db: t.db, input: { incidentId: newest!.incidentId } });
      expect(lane.items.find((i) => i.id === newest!.id)!.waitingBehind).toBe(earlier.requestId);
      expect(lane.items.find((i) => i.id === earlier.id)!.waitingBehind).toBeNull(); // attempted: the head
      const d = await describeDelivery({ db: t.db, requestId: newest!.requestId });
      expect(d.waitingBehind).toBe(earlier.requestId);
    } finally {
      await t.db.webhookDelivery.update({ where: { requestId: earlier.requestId }, data: { state: "delivered" } });
    }
  });

  it("refuses a malformed cursor", async () => {
    await expect(inspectDeliveries({ db: t.db, input: { cursor: "1; drop" } })).rejects.toThrow();
  });
});

describe("describeDelivery", () => {
  it("shows the attempts with the token redacted and 404s for an unknown request id", async () => {
    const [one] = (await inspectDeliveries({ db: t.db, input: { state: "delivered", limit: 1 } })).items;
    const d = await describeDelivery({ db: t.db, requestId: one!.requestId });
    expect(d.attempts[0]!.requestHeaders).toEqual({ authorization: "Bearer [redacted]" });
    expect(Date.parse(d.expiresAt) - Date.parse(d.producedAt)).toBe(3_600_000);
    await expect(
      describeDelivery({ db: t.db, requestId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "DeliveryNotFound", status: 404 });
  });
});
