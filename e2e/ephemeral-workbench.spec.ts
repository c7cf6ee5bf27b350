// `workbench up` / `down` and `conformance --ephemeral`, as a partner's CI runs
// them: real child processes, and afterwards nothing left — no server, no
// embedded PostgreSQL, no data directory, no open port.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, startEphemeralWorkbench } from "../server/cli/ephemeral/start-ephemeral-workbench.ts";

const CLI = ["packages/cli/bin/workbench.mjs"];
type Ready = {
  event: string;
  url: string;
  healthUrl: string;
  pid: number;
  dataDir: string;
  clients: { partnerCad: { clientId: string; clientSecret: string } };
  agencies: { northPsap: string };
};

test.describe.configure({ mode: "serial" });
test.setTimeout(240_000);

/** Starts `workbench up` and resolves with its ready line (the first line of its stdout). */
function up(): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, [...CLI, "up"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const line = out.split("\n")[0]!;
      if (out.includes("\n")) resolve({ child, ready: JSON.parse(line) as Ready });
    });
    child.once("exit", (code) => reject(new Error(`workbench up exited with ${code} before its ready line`)));
  });
}

function cli(...args: string[]) {
  return spawnSync(process.execPath, [...CLI, ...args], { encoding: "utf8", timeout: 200_000 });
}

const exited = (c: ChildProcess) =>
  c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r));
const ephemeralDirs = () =>
  readdirSync(os.tmpdir()).filter((n) => n.startsWith("workbench-ephemeral-") && n !== "workbench-ephemeral-registry");
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const portOpen = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { port } = new URL(url);
    const socket = net
      .connect(Number(port), "127.0.0.1")
      .once("connect", () => {
        socket.destroy();
        resolve(true);
      })
      .once("error", () => resolve(false));
  });
/** Processes whose command line names the data directory: its embedded PostgreSQL. */
const processesUsing = (dir: string) =>
  spawnSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .stdout.split("\n")
    .filter((l) => l.includes(dir));

async function expectNothingLeft(ready: Ready) {
  await expect.poll(() => alive(ready.pid), { timeout: 90_000 }).toBe(false);
  expect(existsSync(ready.dataDir)).toBe(false);
  expect(processesUsing(ready.dataDir)).toEqual([]);
  expect(await portOpen(ready.url)).toBe(false);
}

test("up prints one ready line with what a CI step needs; down leaves nothing behind", async ({ request }) => {
  const { child, ready } = await up();
  expect(ready).toMatchObject({
    event: "ready",
    url: expect.stringMatching(/^http:\/\/localhost:\d+$/),
    clients: { partnerCad: { clientId: "partner-cad" } },
  });
  expect(path.dirname(ready.dataDir)).toBe(os.tmpdir());
  // The health probe it names answers, with the database's state.
  expect(ready.healthUrl).toBe(`${ready.url}/api/health`);
  const health = await request.get(ready.healthUrl);
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok", database: "embedded" });
  // The credentials it prints work against the workbench it started.
  const token = await request.post(`${ready.url}/connect/token`, {
    form: {
      grant_type: "client_credentials",
      client_id: ready.clients.partnerCad.clientId,
      client_secret: ready.clients.partnerCad.clientSecret,
      scope: "agency.read",
      agency_context: ready.agencies.northPsap,
      resource: `${ready.url}/v1`,
    },
  });
  expect(token.status()).toBe(200);

  const down = cli("down", "--url", ready.url);
  expect(down.status, down.stderr).toBe(0);
  expect(down.stdout).toContain(`stopped ${ready.url}`);
  await exited(child);
  await expectNothingLeft(ready);
});

test("two run side by side, and `down` stops both", async ({ request }) => {
  const [a, b] = await Promise.all([up(), up()]);
  expect(a.ready.url).not.toBe(b.ready.url);
  expect(a.ready.dataDir).not.toBe(b.ready.dataDir);
  for (const { ready } of [a, b]) expect((await request.get(`${ready.url}/api/health`)).status()).toBe(200);
  const down = cli("down");
  expect(down.status, down.stderr).toBe(0);
  await expectNothingLeft(a.ready);
  await expectNothingLeft(b.ready);
});

test("a killed `up` leaves nothing running", async () => {
  const { child, ready } = await up();
  child.kill("SIGKILL");
  await expectNothingLeft(ready);
});

test("conformance --ephemeral runs the kit, writes JUnit, tears down and exits with the verdict", async () => {
  const port = await freePort();
  const junit = path.join(os.tmpdir(), `conformance-${port}.xml`);
  const dirsBefore = ephemeralDirs();
  // Its own embedded receiver trusts it as issuer: the kit passes against it.
  const run = cli(
    "conformance",
    "--ephemeral",
    "--port",
    String(port),
    "--insecure-dev",
    "--receiver",
    `http://localhost:${port}/receivers/north-psap`,
    "--junit",
    junit,
  );
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(readFileSync(junit, "utf8")).toMatch(/<testsuites[^>]*failures="0"/);
  expect(await portOpen(`http://localhost:${port}`)).toBe(false);
  expect(ephemeralDirs()).toEqual(dirsBefore);
  // Bad input: one clear line, exit 2, nothing started.
  const bad = cli("conformance", "--port", "99999", "--receiver", "http://localhost:1/x", "--ephemeral");
  expect(bad.status).toBe(2);
  expect(bad.stderr.trim()).toBe("workbench: --port: got 99999, takes a whole number from 1 to 65535");
});

test("the Playwright kit's workbench goes when the worker holding it is killed", async () => {
  // A stand-in for a Playwright worker: it starts the kit's ephemeral workbench (`up` over an IPC
  // channel), prints the ready line and waits; then it is SIGKILLed, with no chance to clean up.
  const worker = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const { startEphemeralWorkbench } = await import(${JSON.stringify(path.resolve("packages/playwright/dist/index.js"))});
       const w = await startEphemeralWorkbench({ log: () => {} });
       process.stdout.write(JSON.stringify(w) + "\\n");
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const ready = await new Promise<Ready>((resolve, reject) => {
    let out = "";
    worker.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!) as Ready);
    });
    worker.once("exit", (code) => reject(new Error(`the worker exited with ${code} before the ready line`)));
  });
  expect(await portOpen(ready.url)).toBe(true);
  worker.kill("SIGKILL");
  await expectNothingLeft(ready);
});

test("a port taken between its pick and the listen: not fooled by who answers there, tries another", async ({
  request,
}) => {
  // Another process on the port, answering everything 200 as a workbench's health would.
  const squatter = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end("{}"),
  );
  const taken = await freePort();
  await new Promise<void>((resolve) => squatter.listen(taken, "127.0.0.1", resolve));
  try {
    const picks = [taken];
    const lines: string[] = [];
    const workbench = await startEphemeralWorkbench({
      pickPort: async () => picks.shift() ?? freePort(),
      log: (line) => lines.push(line),
    });
    try {
      expect(workbench.url).not.toBe(`http://localhost:${taken}`);
      expect(lines.join("\n")).toContain("was taken meanwhile; trying other ports (2 of 3)");
      // What it hands back is its own workbench: the seed's credentials get a token for its API.
      const token = await request.post(`${workbench.url}/connect/token`, {
        form: {
          grant_type: "client_credentials",
          client_id: workbench.seed.clients.partnerCad.clientId,
          client_secret: workbench.seed.clients.partnerCad.clientSecret,
          scope: "agency.read",
          agency_context: workbench.seed.agencies.northPsap,
          resource: `${workbench.url}/v1`,
        },
      });
      expect(token.status()).toBe(200);
    } finally {
      await workbench.stop();
    }
    // A port the caller chose is not changed behind their back: one line says it is taken.
    await expect(startEphemeralWorkbench({ port: taken })).rejects.toThrow(
      `a port of the ephemeral workbench on http://localhost:${taken} was taken by another process`,
    );
  } finally {
    squatter.close();
  }
});
