// `workbench login` and `workbench logout` as a user runs them: the CLI as a child process against a
// shared workbench, the browser's part done over HTTP as the confirm page's form posts it (the real
// Chromium run is e2e/cli-login.spec.ts). The stored token's file is 0600, the next command uses it
// with neither WORKBENCH_URL nor WORKBENCH_TOKEN set, and after logout it is revoked and gone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { signInToDashboard } from "../testing/dashboard-access-client.ts";
import { answerCliLink, spawnCli } from "../testing/cli-login-client.ts";

const ADMIN_PASSWORD = "admin-password-for-tests";
let s: TestServer;
let admin: Record<string, string>;
let config: string;
beforeAll(async () => {
  s = await startTestServer({
    dashboard: true,
    env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: ADMIN_PASSWORD },
  });
  admin = (await signInToDashboard(s.url, "admin", ADMIN_PASSWORD)).credentials!;
  config = fs.mkdtempSync(path.join(os.tmpdir(), "wb-cli-login-"));
});
afterAll(async () => {
  await s.close();
  fs.rmSync(config, { recursive: true, force: true });
});

/** The CLI with a config folder of its own and nothing of the caller's environment. */
const cli = (args: string[], env: Record<string, string> = {}) => spawnCli(args, config, env);

const credentialsFile = () => path.join(config, "xdg", "workbench", "credentials.json");

describe("workbench login / logout against a shared workbench", () => {
  it("stores a 0600 token the next command uses, until logout revokes and forgets it", async () => {
    const login = cli(["login", "--no-browser", "--url", `${s.url}/`]);
    const link = await login.link();
    expect(link.origin).toBe(s.url);
    const { answer } = await answerCliLink(s.url, `${link.pathname}${link.search}`, admin, "authorize");
    const callback = await fetch(answer.headers.get("location")!);
    expect(await callback.text()).toContain("You can close this tab");
    const result = await login.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^Logged in to ${s.url} as admin \\(role admin\\)\\.\\nAPI token "CLI on `),
    );
    expect(result.stdout + result.stderr).not.toMatch(/wbt_/); // the token is never printed

    const file = credentialsFile();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(fs.readFileSync(file, "utf8")) as {
      current: string;
      workbenches: Record<string, { token: string }>;
    };
    expect(stored.current).toBe(s.url);
    const token = stored.workbenches[s.url]!.token;
    expect(token).toMatch(/^wbt_/);
    expect(s.logs.text).not.toContain(token);

    const shown = await cli(["--json", "clock", "show"]).done; // no WORKBENCH_URL, no WORKBENCH_TOKEN
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toHaveProperty("offsetMs");
    // WORKBENCH_TOKEN wins over the stored token.
    const envWins = await cli(["clock", "show"], { WORKBENCH_TOKEN: "wbt_wrong" }).done;
    expect(envWins.stderr).toMatch(/refused WORKBENCH_TOKEN/);

    const logout = await cli(["logout"]).done;
    expect(logout).toMatchObject({ code: 0, stdout: `Logged out of ${s.url}: the token is revoked and forgotten.\n` });
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ version: 1, workbenches: {} });
    const after = await cli(["clock", "show"], { WORKBENCH_URL: s.url, WORKBENCH_TOKEN: token }).done;
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/refused WORKBENCH_TOKEN \(unknown, revoked or expired\)/);
    const again = await cli(["logout", "--url", s.url]).done;
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`workbench: not logged in to ${s.url} (nothing stored in ${credentialsFile()}).\n`);
  }, 180_000);

  it("says so in one line when the member cancels, the state does not match, or the browser never answers", async () => {
    const cancelled = cli(["login", "--no-browser", "--url", s.url]);
    const link = await cancelled.link();
    const { answer } = await answerCliLink(s.url, `${link.pathname}${link.search}`, admin, "cancel");
    expect(await (await fetch(answer.headers.get("location")!)).text()).toContain("Login cancelled");
    expect(await cancelled.done).toMatchObject({ code: 1 });
    expect((await cancelled.done).stderr).toMatch(/\nworkbench: the login was cancelled in the browser\.\n$/);

    const forged = cli(["login", "--no-browser", "--url", s.url]);
    const forgedLink = await forged.link();
    await fetch(`http://127.0.0.1:${forgedLink.searchParams.get("port")}/callback?code=x&state=not-this-one`);
    expect((await forged.done).stderr).toMatch(
      /\nworkbench: the browser's answer did not carry this login's state \(state mismatch\)/,
    );

    const slow = await cli(["login", "--no-browser", "--url", s.url, "--timeout", "2s"]).done;
    expect(slow.code).toBe(1);
    expect(slow.stderr).toMatch(/\nworkbench: no answer from the browser within 2 s: run `workbench login` again\.\n$/);
    expect(
      fs.existsSync(credentialsFile())
        ? Object.keys(JSON.parse(fs.readFileSync(credentialsFile(), "utf8")).workbenches)
        : [],
    ).toEqual([]);
  }, 180_000);

  it("needs no token on a local workbench, and names an unreachable one", async () => {
    const local = await startTestServer({ dashboard: true });
    try {
      const r = await cli(["login", "--url", local.url]).done;
      expect(r).toMatchObject({
        code: 0,
        stdout: `The workbench at ${local.url} is in local mode: no token is needed.\n`,
      });
    } finally {
      await local.close();
    }
    const unreachable = await cli(["login", "--url", "http://127.0.0.1:9"]).done;
    expect(unreachable).toMatchObject({ code: 1, stderr: "workbench: No workbench answers at http://127.0.0.1:9.\n" });
  }, 120_000);
});
