import http from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce, withPageNonce } from "./content-security-policy.ts";

const directives = (policy: string) =>
  new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );

describe("contentSecurityPolicy", () => {
  it("lets scripts run from the own origin and, inline, with the nonce only", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "abc123==", formActions: ["http://localhost:3000"] }));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc123=='"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'", "http://localhost:3000"]);
  });

  it("never allows inline or evaluated scripts in a build, and eval only under next dev", () => {
    const built = directives(contentSecurityPolicy({ nonce: "n", formActions: [] })).get("script-src")!;
    expect(built).not.toContain("'unsafe-inline'");
    expect(built).not.toContain("'unsafe-eval'");
    const dev = directives(contentSecurityPolicy({ nonce: "n", dev: true, formActions: [] })).get("script-src")!;
    expect(dev).toContain("'unsafe-eval'");
    expect(dev).not.toContain("'unsafe-inline'");
  });

  it("names each form target once, and no nonce where there is none", () => {
    const policy = contentSecurityPolicy({ formActions: ["https://a.example", "https://a.example"] });
    expect(directives(policy).get("form-action")).toEqual(["'self'", "https://a.example"]);
    expect(policy).not.toContain("nonce");
  });
});

describe("withPageNonce", () => {
  function request(rawHeaders: string[]) {
    const req = new http.IncomingMessage(new Socket());
    req.rawHeaders = rawHeaders;
    return { req, res: new http.ServerResponse(req) };
  }

  it("gives the request and the response one policy with a fresh nonce, dropping the client's own", () => {
    const { req, res } = request([
      "Host",
      "localhost",
      "Content-Security-Policy",
      "script-src 'nonce-chosen-by-client'",
      "content-security-policy-report-only",
      "script-src 'nonce-x'",
    ]);
    void req.headers.host; // read before, as the guard does: the parsed headers change too
    const nonce = withPageNonce(req, res, { formActions: [] });
    const policy = String(res.getHeader("content-security-policy"));
    expect(policy).toContain(`'nonce-${nonce}'`);
    expect(req.headers["content-security-policy"]).toBe(policy);
    expect(req.headers["content-security-policy-report-only"]).toBeUndefined();
    expect(req.rawHeaders).toEqual(["Host", "localhost", "content-security-policy", policy]);
  });

  it("makes a new 128-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const n of nonces) expect(Buffer.from(n, "base64")).toHaveLength(16);
  });
});
