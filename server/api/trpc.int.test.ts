// The dashboard API through its server-side caller, on a real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { createCaller } from "./root.ts";
import { createTRPCContext } from "./trpc.ts";
import { setRuntime } from "../runtime.ts";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { createLogger } from "../platform/logger.ts";
import { parseEnv } from "../platform/env.ts";
import { SigningKeyStore } from "../platform/signing-keys.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";

let t: TestDatabase;
let caller: ReturnType<typeof createCaller>;
beforeAll(async () => {
  t = await createTestDatabase();
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const clock = new WorkbenchClock();
  setRuntime({
    env: parseEnv({ NODE_ENV: "test" }),
    db: t.db,
    databaseUrl: t.url,
    clock,
    keys: new SigningKeyStore({ db: t.db, clock }),
    logger: createLogger({ destination: sink }),
    databaseMode: t.mode,
  });
  caller = createCaller(await createTRPCContext({ headers: new Headers() }));
});
afterAll(async () => {
  setRuntime(undefined);
  await t.drop();
});

describe("dashboard API", () => {
  it("lists the seeded directory without secrets", async () => {
    const d = await caller.directory.list();
    expect(d.agencies).toHaveLength(4);
    expect(d.clients.map((c) => c.clientId)).toEqual(["partner-cad", "partner-readonly", "portal-spa"]);
    expect(d.clients.find((c) => c.clientId === "portal-spa")?.isPublic).toBe(true);
    expect(JSON.stringify(d)).not.toMatch(/secret|scrypt/i);
    expect(d.integrations.map((i) => i.key)).toEqual(["central-ems", "fire-rescue", "north-psap"]);
  });

  it("moves the clock and maps domain errors to clear tRPC errors", async () => {
    const after = await caller.clock.advance({ byMs: 60_000 });
    expect(after.offsetMs).toBe(60_000);
    expect((await caller.clock.show()).offsetMs).toBe(60_000);
    await expect(caller.clock.advance({ byMs: 8 * 86_400_000 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "One jump may be at most 7 days.",
    });
    expect((await caller.clock.reset()).offsetMs).toBe(0);
  });

  it("resets data to the seed", async () => {
    await t.db.user.deleteMany({});
    await caller.system.resetSeed();
    expect((await caller.directory.list()).users).toHaveLength(6);
  });
});
