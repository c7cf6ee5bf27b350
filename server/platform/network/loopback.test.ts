import { describe, expect, it } from "vitest";
import { isLoopbackAddress, isLoopbackHost } from "./loopback.ts";

describe("isLoopbackHost", () => {
  it.each([
    "localhost",
    "LOCALHOST",
    "app.localhost",
    "127.0.0.1",
    "127.1.2.3",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "0:0:0:0:0:0:0:1",
  ])("%s is loopback", (h) => {
    expect(isLoopbackHost(h)).toBe(true);
  });
  it.each([
    "0.0.0.0",
    "::",
    "10.0.0.1",
    "169.254.169.254",
    "localhost.evil.example",
    "127.0.0.1.nip.io",
    "example.com",
    "::ffff:10.0.0.1",
    "128.0.0.1",
  ])("%s is not", (h) => {
    expect(isLoopbackHost(h)).toBe(false);
  });
  it("reads literal addresses only", () => {
    expect(isLoopbackAddress("localhost")).toBe(false);
    expect(isLoopbackAddress("127.0.0.1")).toBe(true);
  });
});
