// The Host rule per access mode and ALLOWED_HOSTS (the HTTP behaviour is in workbench-guard.int.test.ts).
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../platform/env.ts";
import { createWorkbenchGuard } from "./workbench-guard.ts";

function answer(
  env: Record<string, string>,
  headers: Record<string, string>,
  method = "GET",
  url = "/api/health",
): number | "passed" {
  const { guardRequest } = createWorkbenchGuard(parseEnv(env));
  let status = 0;
  const res = {
    setHeader() {},
    writeHead(s: number) {
      status = s;
      return this;
    },
    end() {},
  } as unknown as http.ServerResponse;
  return guardRequest({ method, url, headers } as http.IncomingMessage, res) ? status : "passed";
}

describe("Host", () => {
  it("in local mode: the own origins and loopback names on any port", () => {
    const local = { PUBLIC_URL: "http://localhost:3000" };
    for (const host of [
      "localhost:3000",
      "localhost",
      "127.0.0.1:3000",
      "127.9.9.9:1",
      "[::1]:3000",
      "app.localhost:3000",
    ])
      expect(answer(local, { host }), host).toBe("passed");
    for (const host of ["evil.example", "192.168.1.20:3000", "localhost.evil.example", "", "local host"])
      expect(answer(local, { host }), host).toBe(421);
    expect(answer(local, {})).toBe(421);
  });

  it("in shared mode: the own origins and ALLOWED_HOSTS only, not loopback aliases", () => {
    const shared = {
      HOST: "0.0.0.0",
      PUBLIC_URL: "https://wb.example",
      PORTAL_URL: "https://portal.example:8443",
      ALLOWED_HOSTS: "10.0.0.5:3000, Monitor.Internal",
    };
    for (const host of [
      "wb.example",
      "wb.example:443",
      "WB.EXAMPLE",
      "portal.example:8443",
      "10.0.0.5:3000",
      "monitor.internal",
      "monitor.internal:9000",
    ])
      expect(answer(shared, { host }), host).toBe("passed");
    for (const host of [
      "localhost:3000",
      "127.0.0.1:3000",
      "wb.example:3000",
      "portal.example",
      "10.0.0.5:3001",
      "evil.example",
    ])
      expect(answer(shared, { host }), host).toBe(421);
  });
});

describe("cross-site writes", () => {
  const env = { HOST: "0.0.0.0", PUBLIC_URL: "https://wb.example", PORTAL_URL: "https://portal.example" };
  it("accepts the own origins behind a TLS proxy and refuses others", () => {
    const post = (origin: string) => answer(env, { host: "wb.example", origin }, "POST", "/api/trpc/clock.reset");
    expect(post("https://wb.example")).toBe("passed");
    expect(post("https://portal.example")).toBe("passed");
    expect(post("http://wb.example")).toBe("passed"); // the request's own origin as the server sees it
    expect(answer(env, { host: "WB.example:80", origin: "http://wb.example" }, "POST", "/api/trpc/clock.reset")).toBe(
      "passed",
    );
    expect(post("https://evil.example")).toBe(403);
    expect(post("https://wb.example.evil.example")).toBe(403);
  });

  it("checks every state-changing method on the dashboard's paths, not the protocol ones", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"])
      expect(answer(env, { host: "wb.example", origin: "https://evil.example" }, method, "/incidents")).toBe(403);
    expect(answer(env, { host: "wb.example", origin: "https://evil.example" }, "OPTIONS", "/api/trpc/x")).toBe(
      "passed",
    );
    expect(answer(env, { host: "wb.example", origin: "https://evil.example" }, "POST", "/connect/token")).toBe(
      "passed",
    );
  });
});
