// The CLI, run as a child process against a workbench's tRPC API: a target the outbound policy
// refuses is one line on stderr (or {"error"} with --json) and a non-zero exit, for
// `integrations set` and `conformance` alike.
import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../api/root.ts";
import { createTRPCContext } from "../api/trpc.ts";
import { setRuntime } from "../runtime.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";

let server: TestServer;
let api: http.Server;
let apiUrl: string;

beforeAll(async () => {
  server = await startTestServer();
  setRuntime(server.runtime);
  // The dashboard's /api/trpc (a Next route in the real server) on its own port.
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: "/api/trpc/",
    createContext: ({ req }) => createTRPCContext({ headers: new Headers(req.headers as Record<string, string>) }),
  });
  api = http.createServer((req, res) =>
    req.url?.startsWith("/api/trpc/") ? trpc(req, res) : res.writeHead(404).end(),
  );
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  api.closeAllConnections();
  await new Promise<void>((resolve) => api.close(() => resolve()));
  setRuntime(undefined);
  await server.close();
});

/** Runs `workbench …` without blocking this process (the API answers from it). */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)("node", ["packages/cli/bin/workbench.mjs", ...args], {
      env: { ...process.env, WORKBENCH_URL: apiUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("workbench CLI: outbound refusals", () => {
  it("integrations set: a private address is one line and exit 1; nothing is stored", async () => {
    const result = await cli([
      "integrations",
      "set",
      "central-ems",
      "--url",
      "http://10.0.0.5/hooks",
      "--insecure-dev",
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "workbench: refused: 10.0.0.5 is a private address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached\n",
    });
    expect((await server.runtime.db.integration.findUniqueOrThrow({ where: { key: "central-ems" } })).receiverUrl).toBe(
      "/receivers/central-ems",
    );
  });

  it("integrations set --json: the refusal as {error}", async () => {
    const result = await cli([
      "--json",
      "integrations",
      "set",
      "central-ems",
      "--url",
      "http://169.254.169.254/latest/meta-data",
      "--insecure-dev",
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error:
        "refused: 169.254.169.254 is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    });
  });

  it("conformance: a loopback receiver without --insecure-dev, and a mapped metadata address with it, are one line each and exit 1", async () => {
    const plain = await cli(["conformance", "--receiver", "http://127.0.0.1:4999/hooks"]);
    expect(plain).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "workbench: refused: http://127.0.0.1:4999 is plain http; HTTPS with a valid certificate is required unless the target is marked insecure-dev (loopback, or a host in OUTBOUND_ALLOW)\n",
    });
    const metadata = await cli(["conformance", "--receiver", "http://[::ffff:a9fe:a9fe]/", "--insecure-dev"]);
    expect(metadata).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "workbench: refused: ::ffff:a9fe:a9fe is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not\n",
    });
    expect(await server.runtime.db.conformanceRun.count()).toBe(0);
  });
});
