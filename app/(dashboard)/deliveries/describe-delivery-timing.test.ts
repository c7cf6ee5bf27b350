import { describe, expect, it } from "vitest";
import { describeExpiry, describeNextAttempt, describeUnsent, type TimingFacts } from "./describe-delivery-timing";

const PRODUCED = Date.parse("2026-11-24T01:00:00.000Z");
const EXPIRES = "2026-11-24T02:00:00.000Z";
const NEXT = "2026-11-24T01:00:08.000Z";
const BEFORE_EXPIRY = PRODUCED + 60_000;
const AFTER_EXPIRY = Date.parse(EXPIRES) + 1;

const facts = (patch: Partial<TimingFacts> = {}): TimingFacts => ({
  state: "pending",
  nextAttemptAt: NEXT,
  waitingBehind: null,
  expiresAt: EXPIRES,
  ...patch,
});

describe("describeExpiry", () => {
  it("counts down while the delivery is open and its hour is not past", () => {
    expect(describeExpiry(facts(), BEFORE_EXPIRY)).toEqual({ label: "Expires", countdown: true });
    expect(describeExpiry(facts({ state: "delivering" }), BEFORE_EXPIRY)).toEqual({
      label: "Expires",
      countdown: true,
    });
  });

  it("shows a time once the hour is past, or before the clock is read", () => {
    expect(describeExpiry(facts(), AFTER_EXPIRY)).toEqual({ label: "Expires", countdown: false });
    expect(describeExpiry(facts(), Date.parse(EXPIRES))).toEqual({ label: "Expires", countdown: false });
    expect(describeExpiry(facts(), null)).toEqual({ label: "Expires", countdown: false });
  });

  it("names the window of a finished delivery", () => {
    for (const state of ["delivered", "expired", "superseded"] as const)
      expect(describeExpiry(facts({ state, nextAttemptAt: null }), BEFORE_EXPIRY)).toEqual({
        label: "Expiry (1 h window)",
        countdown: false,
      });
  });
});

describe("describeNextAttempt", () => {
  it("is the scheduled time of a pending head within its hour", () => {
    expect(describeNextAttempt(facts(), BEFORE_EXPIRY)).toEqual({ at: NEXT });
  });

  it("says a head past its hour is not tried again but expires when claimed", () => {
    expect(describeNextAttempt(facts(), AFTER_EXPIRY)).toEqual({ text: "none: past its hour, expires when claimed" });
    expect(describeNextAttempt(facts(), Date.parse(EXPIRES))).toEqual({
      text: "none: past its hour, expires when claimed",
    });
  });

  it("sends an event waiting in its lane after the head", () => {
    expect(describeNextAttempt(facts({ waitingBehind: "aaaabbbb" }), BEFORE_EXPIRY)).toEqual({
      text: "after the head",
    });
    expect(describeNextAttempt(facts({ waitingBehind: "aaaabbbb" }), null)).toEqual({ text: "after the head" });
  });

  it("is none when nothing is scheduled, the delivery is finished or in flight, or the clock is not read", () => {
    expect(describeNextAttempt(facts({ nextAttemptAt: null }), BEFORE_EXPIRY)).toEqual({ text: "none" });
    expect(describeNextAttempt(facts(), null)).toEqual({ text: "none" });
    for (const state of ["delivering", "delivered", "expired", "superseded"] as const)
      expect(describeNextAttempt(facts({ state }), BEFORE_EXPIRY)).toEqual({ text: "none" });
  });
});

describe("describeUnsent", () => {
  it("says why there is no request to show", () => {
    expect(describeUnsent({ state: "expired", waitingBehind: null })).toBe(
      "Never sent: it expired one hour after it was produced, before its turn came.",
    );
    expect(describeUnsent({ state: "expired", waitingBehind: "aaaabbbb" })).toMatch(/^Never sent/);
    expect(describeUnsent({ state: "superseded", waitingBehind: null })).toBe(
      "Never sent: the receiver cut over to another major version before its turn came.",
    );
    expect(describeUnsent({ state: "pending", waitingBehind: "aaaabbbb" })).toBe(
      "Not sent yet: it waits behind its lane's head.",
    );
    expect(describeUnsent({ state: "pending", waitingBehind: null })).toBe(
      "Not sent yet: its first attempt is queued.",
    );
  });
});
