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
