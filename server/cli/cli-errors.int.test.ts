// The CLI as a user runs it (a child process) against a workbench's tRPC API:
// an option out of range answers one line naming the option, what it got and
// what it takes — checked in the CLI where it knows the bounds (exit 2), and
// from the server's refusal for every other field (exit 1) — never zod's
// issue array.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../api/root.ts";
import { createTRPCContext } from "../api/trpc.ts";
import { setRuntime } from "../runtime.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { DEMO_INCIDENT } from "../incidents/seed-demo-incidents.ts";

let server: TestServer;
let api: Server;
let url: string;
beforeAll(async () => {
  server = await startTestServer();
  setRuntime(server.runtime);
  const handler = createHTTPHandler({
    router: appRouter,
    basePath: "/api/trpc/",
    createContext: ({ req }) => createTRPCContext({ headers: new Headers(req.headers as Record<string, string>) }),
  });
  api = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => api.close(() => resolve()));
  setRuntime(undefined);
  await server.close();
});

type Outcome = { code: number; stdout: string; stderr: string };
function workbench(...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      "node",
      ["packages/cli/bin/workbench.mjs", ...args],
      { env: { ...process.env, WORKBENCH_URL: url }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("an option out of range", () => {
  it("deliveries --limit 100000: one line, checked before the call (the README's example)", async () => {
    const out = await workbench("deliveries", "--limit", "100000");
    expect(out).toEqual({
      code: 2,
      stdout: "",
      stderr: "workbench: --limit: got 100000, takes a whole number from 1 to 5000\n",
    });
    const json = await workbench("--json", "deliveries", "--limit", "100000");
    expect(JSON.parse(json.stdout)).toEqual({ error: "--limit: got 100000, takes a whole number from 1 to 5000" });
    expect(json.code).toBe(2);
  });

  it("deliveries --state sleeping, receiver events --limit 0, sms list --take 1.5: each names its option", async () => {
    const [state, events, take] = await Promise.all([
      workbench("deliveries", "--state", "sleeping"),
      workbench("receiver", "events", "north-psap", "--limit", "0"),
      workbench("sms", "list", "--take", "1.5"),
    ]);
    expect(state.stderr).toBe(
      'workbench: --state: got "sleeping", takes one of pending, delivering, delivered, expired, superseded\n',
    );
    expect(events.stderr).toBe("workbench: --limit: got 0, takes a whole number from 1 to 1000\n");
    expect(take.stderr).toBe("workbench: --take: got 1.5, takes a whole number from 1 to 500\n");
    for (const o of [state, events, take]) expect(o.code).toBe(2);
  });

  it("refused by the server's schema: one line under the CLI's option name, not zod's issue array", async () => {
    const [incident, battery, lat] = await Promise.all([
      workbench("deliveries", "--incident", "not-an-id"),
      workbench("simulate", "device", DEMO_INCIDENT.northFall, "--battery", "150"),
      workbench(
        "--json",
        "simulate",
        "location",
        DEMO_INCIDENT.northFall,
        "--source",
        "MobileApp",
        "--lat",
        "91",
        "--lon",
        "10.7",
        "--accuracy",
        "5",
      ),
    ]);
    expect(incident).toMatchObject({ code: 1, stderr: 'workbench: --incident: got "not-an-id", takes a UUID\n' });
    expect(battery).toMatchObject({ code: 1, stderr: "workbench: --battery: got 150, takes a number at most 100\n" });
    expect(JSON.parse(lat.stdout)).toEqual({
      error: expect.stringMatching(/^--lat: got 91, takes a number at most 90$/),
    });
    for (const o of [incident, battery, lat]) expect(o.stdout + o.stderr).not.toMatch(/origin|"code"|\[\s*\{/);
  });
});

describe("deliveries export and replay", () => {
  it("export asks for --request or --incident, one of the two; an unknown delivery is one line", async () => {
    const [neither, both, unknown] = await Promise.all([
      workbench("deliveries", "export"),
      workbench("deliveries", "export", "--request", DEMO_INCIDENT.northFall, "--incident", DEMO_INCIDENT.northFall),
      workbench("deliveries", "export", "--request", "00000000-0000-4000-8000-000000000000"),
    ]);
    for (const o of [neither, both])
      expect(o).toMatchObject({
        code: 2,
        stderr: "workbench: deliveries export: give --request <id> or --incident <id>, one of the two.\n",
      });
    expect(unknown).toMatchObject({
      code: 1,
      stderr: "workbench: No delivery with Service-Request-Id 00000000-0000-4000-8000-000000000000.\n",
    });
  });

  it("replay checks its file before sending anything: missing, not JSON, not an export", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-"));
    try {
      await writeFile(join(dir, "notes.txt"), "not json");
      await writeFile(join(dir, "other.json"), JSON.stringify({ format: "something-else", deliveries: [] }));
      const [missing, text, other] = await Promise.all([
        workbench("deliveries", "replay", join(dir, "missing.json"), "--to", "central-ems"),
        workbench("deliveries", "replay", join(dir, "notes.txt"), "--to", "central-ems"),
        workbench("deliveries", "replay", join(dir, "other.json"), "--to", "central-ems"),
      ]);
      expect(missing).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/missing\.json: cannot be read \(ENOENT\)\n$/),
      });
      expect(text).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/notes\.txt: not JSON; give a file written by/),
      });
      expect(other).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /other\.json: not a delivery export \(its "format" is not incident-platform-workbench\/delivery-export\)\n$/,
        ),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
