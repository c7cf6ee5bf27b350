// `workbench calls`, `workbench calls fault` and `workbench client-report` as a user runs them (a
// child process) against a workbench (docs/api-calls.md): the list with advice, a fault set and
// cleared, and a client-report that fails a CI run (exit 1, JUnit failures) for a client that
// fetches a token per call and passes one that does not.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { callRecorderOf } from "../client-calls/record-calls.ts";
import { NORTH } from "../http/identity/token-test-helpers.ts";
import { createClient } from "../identity/manage-clients.ts";
import { ADVICE_RULE_IDS } from "../client-calls/advice/advice-rules.ts";

let s: TestServer;
let dir: string;
beforeAll(async () => {
  s = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), "wb-calls-cli-"));
});
afterAll(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

type Outcome = { code: number; stdout: string; stderr: string };
function workbench(...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      "node",
      ["packages/cli/bin/workbench.mjs", ...args],
      { env: { ...process.env, WORKBENCH_URL: s.url, WORKBENCH_TOKEN: "" }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function partner(id: string) {
  const { clientSecret } = await createClient({
    ...s.runtime,
    input: { clientId: id, displayName: id, scopes: ["agency.read"], agencyIds: [NORTH], accessTokenLifetimeS: 3600 },
  });
  const token = async () => {
    const res = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: id,
        client_secret: clientSecret,
        agency_context: NORTH,
        scope: "agency.read",
      }),
    });
    return { status: res.status, token: ((await res.json()) as { access_token?: string }).access_token };
  };
  const info = (bearer: string) => fetch(`${s.url}/v1/agency/info`, { headers: { authorization: `Bearer ${bearer}` } });
  return { token, info };
}

it("client-report fails a run for a client that fetches a token per call, and passes one that caches it", async () => {
  const wasteful = await partner("cli-wasteful");
  for (let i = 0; i < 3; i++) await wasteful.info((await wasteful.token()).token!);
  const careful = await partner("cli-careful");
  const cached = (await careful.token()).token!;
  for (let i = 0; i < 3; i++) await careful.info(cached);
  await callRecorderOf(s.runtime).flush();

  const junit = join(dir, "client.xml");
  const failing = await workbench("client-report", "cli-wasteful", "--junit", junit);
  expect(failing.code).toBe(1);
  expect(failing.stdout).toContain("ERROR  A new token while the last one had most of its life left  (2×");
  expect(failing.stdout).toMatch(/fix: {2}Cache the access token/);
  const xml = await readFile(junit, "utf8");
  expect(xml).toContain('<failure type="error" message="2× — A new token at');
  expect(xml.match(/<testcase /g)?.length).toBe(ADVICE_RULE_IDS.length);

  const passing = await workbench("client-report", "cli-careful", "--json");
  expect(passing.code).toBe(0);
  expect(JSON.parse(passing.stdout)).toMatchObject({ clientId: "cli-careful", calls: 4, verdict: "clean" });

  const nothing = await workbench("client-report", "never-called");
  expect(nothing.code).toBe(1);
  expect(nothing.stdout).toContain("no calls recorded: nothing to judge");
});

it("calls lists them with their advice; --client and --advice narrow it", async () => {
  const list = await workbench("calls", "--client", "cli-wasteful", "--advice");
  expect(list.code).toBe(0);
  const lines = list.stdout.trim().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/200 +cli-wasteful +token client_credentials .*\[advice: token-per-call\]/);
  const json = JSON.parse((await workbench("calls", "--client", "cli-careful", "--json")).stdout) as {
    calls: unknown[];
  };
  expect(json.calls).toHaveLength(4);
  expect((await workbench("calls", "--since", "2y")).stderr).toContain(
    '--since: got "2y", takes one of 15m, 1h, 6h, 24h',
  );
});

it("calls fault sets a fault the client meets, lists it, and clears it", async () => {
  const client = await partner("cli-faulted");
  const set = await workbench(
    "calls",
    "fault",
    "--client",
    "cli-faulted",
    "--surface",
    "token",
    "--mode",
    "http-503",
    "--count",
    "1",
    "--retry-after",
    "2",
  );
  expect(set.code).toBe(0);
  expect(set.stdout).toContain("fault set: http-503 (Retry-After 2 s) for cli-faulted on token, 1 call left");
  expect((await workbench("calls", "fault")).stdout).toContain("http-503 (Retry-After 2 s) for cli-faulted on token");
  // Set through this process's API, so its copy of the faults is renewed at once.
  expect((await client.token()).status).toBe(503);
  expect((await client.token()).status).toBe(200);
  const bad = await workbench("calls", "fault", "--surface", "v1", "--mode", "explode");
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("is not a fault mode: use ok|http-503|http-500|http-429|slow:<ms>|reset");
  expect((await workbench("calls", "fault", "--clear-all")).stdout).toMatch(/cleared \d+ fault/);
});
