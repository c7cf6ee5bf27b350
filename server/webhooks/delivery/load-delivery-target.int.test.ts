// The delivery target (receiver URL, acceptance, dispatcher-side fault) is read
// once per second per worker, and at once after a change made in this process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { receiverEvents } from "../../reference-receiver/receiver-events.ts";
import { webhookEvents } from "../webhook-events.ts";
import { createDeliveryTargetLoader } from "./load-delivery-target.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe("delivery target loader", () => {
  it("reads the integration, its acceptance and its dispatcher fault in one go; caches them for a second; a change in this process applies at once", async () => {
    let elapsed = 0;
    const loader = createDeliveryTargetLoader(t.db, () => elapsed);
    try {
      const first = await loader.load("north-psap");
      expect(first).toMatchObject({
        key: "north-psap",
        receiverUrl: "/receivers/north-psap",
        insecureDev: true,
        dispatcherFault: null,
      });
      expect(await loader.load("nobody")).toBeNull();

      // Another process sets a fault (no event reaches this one): seen once the second is over.
      const startsAt = new Date("2026-11-23T10:00:00Z");
      await t.db.integrationFault.create({
        data: {
          integrationKey: "north-psap",
          side: "dispatcher",
          mode: "refused",
          startsAt,
          endsAt: null,
          setAt: startsAt,
        },
      });
      elapsed = 999;
      expect((await loader.load("north-psap"))?.dispatcherFault).toBeNull();
      elapsed = 1_001;
      expect((await loader.load("north-psap"))?.dispatcherFault).toEqual({ mode: "refused", startsAt, endsAt: null });

      // A fault set in this process (the setter emits dispatcher:fault-changed) clears the cache at once; a receiver-side one does not need to.
      await t.db.integrationFault.update({
        where: { integrationKey_side: { integrationKey: "north-psap", side: "dispatcher" } },
        data: { mode: "timeout" },
      });
      receiverEvents.emit("receiver:fault-changed", { integrationKey: "north-psap", mode: "http-500" });
      expect((await loader.load("north-psap"))?.dispatcherFault?.mode).toBe("refused");
      webhookEvents().emit("dispatcher:fault-changed", { integrationKey: "north-psap", mode: "timeout" });
      expect((await loader.load("north-psap"))?.dispatcherFault?.mode).toBe("timeout");

      // So does discovery.
      await t.db.integration.update({
        where: { key: "north-psap" },
        data: { receiverUrl: "https://receiver.example/hooks" },
      });
      webhookEvents().emit("integration:discovered", {
        integrationKey: "north-psap",
        status: "active",
        version: "3.0",
        flags: [],
        error: null,
      });
      expect((await loader.load("north-psap"))?.receiverUrl).toBe("https://receiver.example/hooks");
    } finally {
      loader.close();
    }
  });
});
