// For identity tests: a test database with the seed's signing keys and a manual
// clock (2026-11-22 12:00 UTC), set up before the file's tests and dropped after.
import { afterAll, beforeAll } from "vitest";
import { ManualClock } from "../../platform/clock/clock.ts";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { SigningKeyStore } from "../../platform/signing-keys.ts";

export type SigningKeyFixture = { t: TestDatabase; clock: ManualClock; keys: SigningKeyStore };

/** Call at a test file's top level; read the members inside tests (they exist once beforeAll ran). */
export function useSigningKeyFixture(): SigningKeyFixture {
  const f = {} as SigningKeyFixture;
  beforeAll(async () => {
    f.t = await createTestDatabase();
    f.clock = new ManualClock(Date.UTC(2026, 10, 22, 12));
    f.keys = new SigningKeyStore({ db: f.t.db, clock: f.clock });
  });
  afterAll(async () => {
    await f.t.drop();
  });
  return f;
}
