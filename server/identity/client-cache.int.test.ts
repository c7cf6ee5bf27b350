// The token endpoint remembers clients only while it hears every change to them: a change made
// anywhere (here: plain SQL, as another process or an operator would) takes effect at once.
import { afterAll, beforeAll, expect, it } from "vitest";
import { ManualClock } from "../platform/clock/clock.ts";
import { createLogger } from "../platform/logger.ts";
import type { Worker } from "../platform/worker.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { authenticateConfidentialClient } from "./authenticate-client.ts";
import { hashClientSecret } from "./client-secret.ts";
import { startClientCacheWorker } from "./client-cache.ts";

const CLIENT = "partner-cad";
const SECRET = "partner-cad-secret";
const env = { ACCESS_MODE: "local", ALLOW_DEV_CREDENTIALS: false } as const;
const clock = new ManualClock(Date.parse("2026-01-01T00:00:00Z"));
let t: TestDatabase;
let worker: Worker | undefined;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await worker?.stop();
  await t.drop();
});

const authenticate = (clientSecret: string) =>
  authenticateConfidentialClient({ db: t.db, clock, env, clientId: CLIENT, clientSecret, source: "test" }).then(
    (c) => c.agencies.map((a) => a.agencyId),
    (e: Error) => e.message,
  );
const setSecret = async (secret: string) => {
  const hash = await hashClientSecret(secret);
  await t.db.$executeRaw`UPDATE "Client" SET "secretHash" = ${hash} WHERE id = ${CLIENT}`;
};
/** A change with the triggers off: what a remembered client would not hear of. */
const silently = async (change: () => Promise<unknown>) => {
  await t.db.$executeRawUnsafe(`ALTER TABLE "Client" DISABLE TRIGGER USER`);
  try {
    await change();
  } finally {
    await t.db.$executeRawUnsafe(`ALTER TABLE "Client" ENABLE TRIGGER USER`);
  }
};
const eventually = async (check: () => Promise<boolean>) => {
  const deadline = Date.now() + 2_000;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
};

it("without the listener, every token reads the client: a change is seen by the next request", async () => {
  const agencies = await authenticate(SECRET);
  expect(agencies).not.toHaveLength(0);
  await silently(() => setSecret("rotated-1"));
  expect(await authenticate(SECRET)).toMatch(/invalid/);
  expect(await authenticate("rotated-1")).toEqual(agencies);
});

it("with the listener, a client is remembered, and forgotten as soon as a change to it commits", async () => {
  worker = await startClientCacheWorker({ databaseUrl: t.url, logger: createLogger({ level: "silent" }) });
  const agencies = await authenticate("rotated-1");

  // Remembered: a change nobody announces is not seen (this is what the triggers are for).
  await silently(() => setSecret("rotated-2"));
  expect(await authenticate("rotated-1")).toEqual(agencies);

  // Announced by the trigger when it commits: the old secret is refused right after.
  await setSecret("rotated-3");
  expect(await eventually(async () => typeof (await authenticate("rotated-1")) === "string")).toBe(true);
  expect(await authenticate("rotated-3")).toEqual(agencies);

  // A change to the client's agencies is announced too.
  await t.db.$executeRaw`DELETE FROM "ClientAgency" WHERE "clientId" = ${CLIENT} AND "agencyId" = ${agencies[0]}::uuid`;
  expect(
    await eventually(async () => JSON.stringify(await authenticate("rotated-3")) === JSON.stringify(agencies.slice(1))),
  ).toBe(true);
});

it("once the listener stops, nothing is remembered any more", async () => {
  await authenticate("rotated-3");
  await worker!.stop();
  worker = undefined;
  await silently(() => setSecret("rotated-4"));
  expect(await authenticate("rotated-3")).toMatch(/invalid/);
});
