// The outbound token cache across workbench clock moves: a token minted while the clock stood
// ahead must not be reused once the clock is back (the receiver would see iat in its future).
import { decodeJwt } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWebhookHarness, type WebhookHarness } from "../testing/webhook-harness.ts";
import { getServiceToken } from "./service-token-cache.ts";

const NORTH = "0b0c5b52-1c0e-4a57-9a57-000000000001";
let h: WebhookHarness;
beforeAll(async () => {
  h = await startWebhookHarness({ flags: ["incident.created"] });
});
afterAll(async () => h.close());

it("reuses a token on an unmoved clock, and re-mints after the clock moved back past its minting", async () => {
  const first = await getServiceToken(h.runtime, NORTH, "Publisher");
  expect(await getServiceToken(h.runtime, NORTH, "Publisher")).toBe(first);
  h.clock.setOffset(61 * 60_000);
  const ahead = await getServiceToken(h.runtime, NORTH, "Publisher");
  expect(ahead).not.toBe(first); // the first one is within 5 min of expiry on the +61 min clock (or past it)
  h.clock.setOffset(0);
  const back = await getServiceToken(h.runtime, NORTH, "Publisher");
  expect(back).not.toBe(ahead);
  expect(decodeJwt(back).iat!).toBeLessThanOrEqual(Math.ceil(h.clock.nowMs() / 1000));
});
