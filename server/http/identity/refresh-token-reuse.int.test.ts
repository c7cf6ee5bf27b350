// Black-box: one refresh token redeemed by N concurrent requests (SECURITY.md, /connect/token).
// Exactly one gets tokens, every other one gets invalid_grant, and the reuse
// revokes the whole family, including the successor the winner was just given.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRefreshToken, rotateRefreshToken } from "../../identity/refresh-tokens.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { hashOpaqueValue } from "../../identity/hash-opaque-value.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { postToken } from "./token-test-helpers.ts";

const DISPATCHER_NORTH = "0b0c5b52-1c0e-4a57-9a57-100000000001";
const CONCURRENT = 8;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const refresh = (token: string) =>
  postToken(s.url, { grant_type: "refresh_token", client_id: "portal-spa", refresh_token: token });

it.each([1, 2, 3, 4, 5])(
  `${CONCURRENT} concurrent redemptions of one refresh token: one succeeds, the family is revoked (round %i)`,
  async () => {
    const token = await createRefreshToken({
      db: s.runtime.db,
      clock: s.runtime.clock,
      clientId: "portal-spa",
      userId: DISPATCHER_NORTH,
      scopes: ["openid", "offline_access"],
    });
    const { familyId } = await s.runtime.db.refreshToken.findUniqueOrThrow({
      where: { tokenHash: hashOpaqueValue(token) },
    });

    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => refresh(token)));

    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 200))
      expect(lost).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const family = await s.runtime.db.refreshToken.findMany({ where: { familyId } });
    expect(family, "the original and exactly one successor").toHaveLength(2);
    expect(
      family.filter((t) => t.revokedAt === null),
      "every member revoked",
    ).toEqual([]);
    expect((await refresh(won[0]!.body.refresh_token as string)).body.error).toBe("invalid_grant");
  },
);

it("a reuse that lands while the winner is still issuing revokes the winner's successor too", async () => {
  const db = s.runtime.db;
  const token = await createRefreshToken({
    db,
    clock: s.runtime.clock,
    clientId: "portal-spa",
    userId: DISPATCHER_NORTH,
    scopes: ["openid"],
  });
  const { familyId } = await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: hashOpaqueValue(token) } });
  // The first redemption's user lookup takes 300 ms: the widest gap a slow query can open in the grant.
  let slowed = false;
  const slowFirstUserLookup = db.$extends({
    query: {
      user: {
        async findUnique({ args, query }) {
          if (!slowed) {
            slowed = true;
            await new Promise((r) => setTimeout(r, 300));
          }
          return query(args);
        },
      },
    },
  }) as unknown as DbClient;

  const first = rotateRefreshToken({
    db: slowFirstUserLookup,
    clock: s.runtime.clock,
    refreshToken: token,
    clientId: "portal-spa",
  });
  await new Promise((r) => setTimeout(r, 50));
  const second = rotateRefreshToken({
    db: slowFirstUserLookup,
    clock: s.runtime.clock,
    refreshToken: token,
    clientId: "portal-spa",
  });
  const outcomes = await Promise.allSettled([first, second]);

  expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
  expect(outcomes.filter((o) => o.status === "rejected").map((o) => o.reason.wireCode)).toEqual(["invalid_grant"]);
  const family = await db.refreshToken.findMany({ where: { familyId } });
  expect(family).toHaveLength(2);
  expect(
    family.filter((t) => t.revokedAt === null),
    "the successor issued to the winner is revoked as well",
  ).toEqual([]);
});
