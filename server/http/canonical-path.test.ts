// The one form of a path every reader agrees on (canonical-path.ts); over HTTP: canonical-path.int.test.ts.
import { describe, expect, it } from "vitest";
import { nonCanonicalPath, normalisedPath } from "./canonical-path.ts";

describe("nonCanonicalPath", () => {
  it.each([
    "/",
    "/admin",
    "/portal/incidents/0b0c5b52-1c0e-4a57-9a57-000000000001",
    "/v1/incidents?x=../../y&z=%2f",
    "/_next/static/chunks/app-1a2b.js",
    "/connect/token",
    "/receivers/north-psap/v3/incidents",
    "/.well-known/openid-configuration",
    "/a.b/..c/c..",
    "/v1/incidents/%2e%2ex",
    "/search/%20ok",
  ])("lets %s through", (target) => expect(nonCanonicalPath(target)).toBeNull());

  it.each([
    ["/portal/../admin", /dot segments/],
    ["/portal/%2e%2e/admin", /dot segments/],
    ["/portal/%2E%2E/admin", /dot segments/],
    ["/portal/.%2e/admin", /dot segments/],
    ["/portal/%2e./admin", /dot segments/],
    ["/portal/./admin", /dot segments/],
    ["/portal/..", /dot segments/],
    ["/_next/static/../../admin", /dot segments/],
    ["/portal%2f..%2fadmin", /encoded slash/],
    ["/portal%5c..%5cadmin", /encoded slash/],
    ["/portal\\..\\admin", /backslash/],
    ["/portal//admin", /empty segment/],
    ["//admin", /empty segment/],
    ["/portal/..;/admin", /';'/],
    ["/portal;x=1/admin", /';'/],
    ["/receivers/a%00b/health", /NUL/],
    ["/a\u0001b", /control/],
    ["/a%zz", /malformed/],
    ["/a%2", /malformed/],
    ["/a#b", /fragment/],
    ["http://localhost/admin", /starting with \//],
    ["*", /starting with \//],
  ])("refuses %s", (target, reason) => expect(nonCanonicalPath(target)).toMatch(reason));
});

describe("normalisedPath", () => {
  it("reads a path as WHATWG URL parsing does (how the refusal's format is chosen)", () => {
    expect(normalisedPath("/portal/../admin")).toBe("/admin");
    expect(normalisedPath("/portal/%2e%2e/v1/x")).toBe("/v1/x");
    expect(normalisedPath("/v1/incidents/..;/x")).toBe("/v1/incidents/..;/x");
    expect(normalisedPath("//v1/x")).toBe("//v1/x");
    expect(normalisedPath("http://h/v1/x")).toBe("/v1/x");
  });
});
