import { describe, expect, it } from "vitest";
import { isChildReport, isPortTaken } from "./child-report.ts";

describe("a started workbench's report to its parent", () => {
  it("tells a port taken from other start-up failures, through the causes create-server keeps", () => {
    const inUse = Object.assign(new Error("listen EADDRINUSE: address already in use 127.0.0.1:3000"), {
      code: "EADDRINUSE",
    });
    expect(isPortTaken(new Error("127.0.0.1:3000 is already in use (another workbench?)", { cause: inUse }))).toBe(
      true,
    );
    expect(isPortTaken(new Error("could not create any TCP/IP sockets (see …/server.log)"))).toBe(true);
    expect(isPortTaken(new Error("127.0.0.1 is not an address of this machine: set HOST"))).toBe(false);
    expect(isPortTaken(undefined)).toBe(false);
  });

  it("reads only its own messages", () => {
    expect(isChildReport({ event: "ready" })).toBe(true);
    expect(isChildReport({ event: "failed", portTaken: true })).toBe(true);
    expect(isChildReport({ event: "other" })).toBe(false);
    expect(isChildReport(null)).toBe(false);
  });
});
