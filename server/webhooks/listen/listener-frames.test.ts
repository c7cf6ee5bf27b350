// A listener's frames are parsed within bounds (listener-frames.ts).
import { describe, expect, it } from "vitest";
import { parseListenerFrame } from "./listener-frames.ts";

describe("parseListenerFrame", () => {
  it("refuses a frame nested past the JSON depth bound before parsing it, and one that is not JSON", () => {
    expect(parseListenerFrame("[".repeat(100_000))).toEqual({ problem: expect.stringMatching(/deeper than 64/) });
    expect(parseListenerFrame("{")).toEqual({ problem: "a frame that is not JSON" });
    expect(parseListenerFrame(`{"type":"nonsense"}`)).toMatchObject({
      problem: expect.stringMatching(/^an invalid frame/),
    });
  });
});
