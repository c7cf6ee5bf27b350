// The NOTIFY that wakes other processes' workers: sent after the commit that
// planned deliveries (never from inside it), coalesced under a burst, and not
// sent by a process that delivers itself while no other process listens.
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { startWebhookHarness, type WebhookHarness } from "../testing/webhook-harness.ts";
import { webhookEvents } from "../webhook-events.ts";
import { OUTBOX_CHANNEL } from "../outbox/outbox-row.ts";
import { listenerName } from "../../platform/db/listen-channel.ts";
import { startOutboxNotifier, type OutboxNotifier } from "./outbox-notifier.ts";

const ID = "0e7f0000-0000-4000-8000-000000000001";
let h: WebhookHarness;
let listener: pg.Client;
let notifier: OutboxNotifier | undefined;
/** Each notification, with the number of outbox rows visible when it arrived. */
let heard: Array<Promise<number>>;
beforeEach(async () => {
  h = await startWebhookHarness();
  heard = [];
  listener = new pg.Client({ connectionString: h.database.url });
  await listener.connect();
  listener.on("notification", (n) => {
    if (n.channel === OUTBOX_CHANNEL) heard.push(h.database.db.webhookDelivery.count());
  });
  await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
});
afterEach(async () => {
  await notifier?.stop();
  notifier = undefined;
  await listener.end();
  await h.close();
});

/** Every notification sent so far has arrived: a marker NOTIFY sent now arrives after them (one session's notifications keep commit order). */
async function drained() {
  const marker = new Promise<void>((resolve) =>
    listener.on("notification", (n) => {
      if (n.channel === "test_marker") resolve();
    }),
  );
  await listener.query("LISTEN test_marker");
  await h.database.db.$executeRawUnsafe(`NOTIFY test_marker`);
  await marker;
}

describe("outbox notifier", () => {
  it("a commit that planned deliveries is followed by one NOTIFY, sent after the commit; the commit itself sends none", async () => {
    await h.commit(buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID })));
    await drained();
    expect(heard).toHaveLength(0); // planning alone notifies no one

    notifier = startOutboxNotifier(h.runtime);
    await h.commit(buildChange({ kind: "labelChanged" }, buildSnapshot({ id: ID, label: "L1" }), { seq: 2 }));
    await notifier.settled();
    await drained();
    expect(heard).toHaveLength(1);
    expect(await heard[0]).toBe(2); // both rows visible when the notification arrived
  });

  it("coalesces a burst: one NOTIFY in flight, and one more owed by the wakes that arrived meanwhile", async () => {
    notifier = startOutboxNotifier(h.runtime);
    for (let i = 0; i < 100; i++) webhookEvents().emit("outbox:wake");
    await notifier.settled();
    await drained();
    expect(heard).toHaveLength(2);
  });

  it("a process that delivers itself sends none while no other process's worker listens", async () => {
    notifier = startOutboxNotifier(h.runtime, { deliversItself: true });
    webhookEvents().emit("outbox:wake");
    await notifier.settled();
    await drained();
    expect(heard).toHaveLength(0); // this test's plain LISTEN is not a workbench worker
    await notifier.stop();

    const elsewhere = new pg.Client({
      connectionString: h.database.url,
      application_name: listenerName(OUTBOX_CHANNEL, "another-process"),
    });
    await elsewhere.connect();
    try {
      notifier = startOutboxNotifier(h.runtime, { deliversItself: true });
      webhookEvents().emit("outbox:wake");
      await notifier.settled();
      await drained();
      expect(heard).toHaveLength(1);
    } finally {
      await elsewhere.end();
    }
  });

  it("once stopped, a wake sends nothing", async () => {
    notifier = startOutboxNotifier(h.runtime);
    await notifier.stop();
    webhookEvents().emit("outbox:wake");
    await notifier.settled();
    await drained();
    expect(heard).toHaveLength(0);
  });
});
