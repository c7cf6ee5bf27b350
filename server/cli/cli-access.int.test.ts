// The CLI, run as a child process, against a shared workbench: without a token and
// with a wrong one it prints one clear line and exits non-zero; with an API token
// (WORKBENCH_TOKEN) it works as on a local workbench, within the token's role.
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createApiToken } from "../workbench/access/api-tokens.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    dashboard: true,
    env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: "admin-password-for-tests" },
  });
});
afterAll(async () => {
  await s.close();
});

function cli(args: string[], token?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "test",
    PATH: process.env.PATH ?? "",
    XDG_CONFIG_HOME: "/nonexistent", // no stored login of the machine's user counts here
    WORKBENCH_URL: s.url,
    ...(token ? { WORKBENCH_TOKEN: token } : {}),
  };
  return new Promise((resolve) => {
    execFile("node", ["packages/cli/bin/workbench.mjs", ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("the CLI against a shared workbench", () => {
  it("without WORKBENCH_TOKEN: one line saying to set it, exit 1", { timeout: 60_000 }, async () => {
    const r = await cli(["clock", "show"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `workbench: The workbench at ${s.url} is shared: run \`workbench login --url ${s.url}\`, or set WORKBENCH_TOKEN to an API token (an admin creates one on the Admin page or with \`workbench tokens create\`).\n`,
    );
  });

  it("with a wrong token: one line saying it was refused, exit 1", { timeout: 60_000 }, async () => {
    const r = await cli(["clock", "show"], "wbt_wrong");
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/refused WORKBENCH_TOKEN \(unknown, revoked or expired\)/);
  });

  it("with an API token: works within the token's role; an admin token manages tokens", async () => {
    const viewer = await createApiToken({
      ...s.runtime,
      input: { name: "ci-viewer", role: "viewer" },
      createdBy: "test",
    });
    const shown = await cli(["--json", "clock", "show"], viewer.token);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toHaveProperty("offsetMs");
    const forbidden = await cli(["clock", "advance", "1m"], viewer.token);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toBe("workbench: This needs the admin role; ci-viewer has the viewer role.\n");

    const admin = await createApiToken({ ...s.runtime, input: { name: "ci-admin", role: "admin" }, createdBy: "test" });
    const created = await cli(
      ["--json", "tokens", "create", "nightly", "--role", "integrator", "--expires-in-days", "30"],
      admin.token,
    );
    expect(created.code).toBe(0);
    const { token, id } = JSON.parse(created.stdout) as { token: string; id: string };
    expect((await cli(["clock", "show"], token)).code).toBe(0);
    expect((await cli(["tokens", "revoke", id], admin.token)).code).toBe(0);
    expect((await cli(["clock", "show"], token)).code).toBe(1);
  }, 180_000); // seven CLI processes, ~5 s each on a loaded 2-core machine
});
