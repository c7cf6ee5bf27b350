// `workbench up` starts a throwaway workbench and keeps it running until
// `workbench down`, SIGINT or SIGTERM; it prints ONE machine-readable ready line
// (JSON on stdout) for scripts to read. `workbench down` stops the ones running.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { HEALTH_PATH } from "../../http/health.ts";
import { fail, type OutputMode } from "../output.ts";
import { wholeNumber } from "../parse-options.ts";
import { onStopSignals } from "../stop-signals.ts";
import { startEphemeralWorkbench, type EphemeralWorkbench } from "../ephemeral/start-ephemeral-workbench.ts";

/** Where running `workbench up` processes announce themselves, one file each, so `down` can find them. */
const REGISTRY = path.join(os.tmpdir(), "workbench-ephemeral-registry");
type Entry = { pid: number; url: string; dataDir: string };

/** The ready line; `healthUrl` is what a CI script or load balancer probes (GET: 200 while the database answers, else 503). */
export function readyLine(w: Pick<EphemeralWorkbench, "url" | "pid" | "dataDir" | "seed">) {
  return {
    event: "ready" as const,
    url: w.url,
    authUrl: w.url,
    baseUrl: `${w.url}/v1`,
    healthUrl: `${w.url}${HEALTH_PATH}`,
    pid: w.pid,
    dataDir: w.dataDir,
    agencies: w.seed.agencies,
    users: w.seed.users,
    clients: w.seed.clients,
  };
}

export function registerEphemeralCommands(program: Command) {
  program
    .command("up")
    .description(
      "start a throwaway workbench (temporary data, free port) and keep it running until `workbench down` or a signal; prints one JSON ready line",
    )
    .option(
      "--port <port>",
      "listen on this port instead of a free one (e.g. so a receiver can trust http://localhost:PORT as its issuer)",
    )
    .action(async (options: { port?: string }) => {
      const mode: OutputMode = { json: Boolean(program.opts().json) };
      let port: number | undefined;
      try {
        port = wholeNumber("--port", options.port, 1, 65535);
      } catch (error) {
        fail(mode, (error as Error).message, 2);
      }
      let workbench: EphemeralWorkbench;
      try {
        workbench = await startEphemeralWorkbench({ port, log: (line) => process.stderr.write(`${line}\n`) });
      } catch (error) {
        fail(mode, (error as Error).message);
      }
      const entryFile = path.join(REGISTRY, `${process.pid}.json`);
      await mkdir(REGISTRY, { recursive: true });
      await writeFile(
        entryFile,
        JSON.stringify({ pid: process.pid, url: workbench.url, dataDir: workbench.dataDir } satisfies Entry),
      );
      process.stdout.write(`${JSON.stringify(readyLine(workbench))}\n`);
      if (!mode.json)
        process.stderr.write(
          `Ephemeral workbench on ${workbench.url} (health: ${workbench.url}${HEALTH_PATH}) — stop it with \`workbench down\` or Ctrl-C.\n`,
        );
      let stopping = false;
      const stop = async (code: number) => {
        if (stopping) return;
        stopping = true;
        await workbench.stop();
        await rm(entryFile, { force: true });
        process.exit(code);
      };
      onStopSignals(() => void stop(0)); // a second Ctrl-C: exit at once (stop-signals.ts)
      // Started by a program holding an IPC channel (the Playwright kit does): when that program
      // goes, even SIGKILLed, the channel closes and this workbench goes with it.
      if (process.channel) process.once("disconnect", () => void stop(0));
      // The server stopping by itself (a crash) ends `up` too, with its exit code.
      void workbench.exited.then((code) => stop(code ?? 1));
    });

  program
    .command("down")
    .description("stop ephemeral workbenches started by `workbench up` (all of them, or the one at --url)")
    .option("--url <url>", "only the one at this URL")
    .action(async (options: { url?: string }) => {
      const mode: OutputMode = { json: Boolean(program.opts().json) };
      const entries = await readRegistry();
      const wanted = options.url?.replace(/\/+$/, "");
      const targets = wanted ? entries.filter((e) => e.url === wanted) : entries;
      if (options.url && targets.length === 0)
        fail(
          mode,
          `no ephemeral workbench runs at ${options.url} (running: ${entries.map((e) => e.url).join(", ") || "none"}).`,
        );
      await Promise.all(targets.map(stopEntry));
      const stopped = targets.map((t) => t.url);
      process.stdout.write(
        mode.json
          ? `${JSON.stringify({ stopped })}\n`
          : `${stopped.length ? `stopped ${stopped.join(", ")}` : "no ephemeral workbench was running"}\n`,
      );
    });
}

async function readRegistry(): Promise<Array<Entry & { file: string }>> {
  const names = await readdir(REGISTRY).catch(() => [] as string[]);
  const entries: Array<Entry & { file: string }> = [];
  for (const name of names.filter((n) => n.endsWith(".json"))) {
    const file = path.join(REGISTRY, name);
    const entry = await readFile(file, "utf8").then(
      (t) => JSON.parse(t) as Entry,
      () => null,
    );
    if (entry && isAlive(entry.pid)) entries.push({ ...entry, file });
    else await rm(file, { force: true }); // its `up` died: its server stopped with it
  }
  return entries;
}

/**
 * Stops one `up` and waits until its workbench is gone: `up` removes its registry file once the
 * server and its data are, just before it exits. (Its process may linger as a zombie until its own
 * parent reaps it, so its pid alone says nothing.)
 */
async function stopEntry(entry: Entry & { file: string }): Promise<void> {
  process.kill(entry.pid, "SIGTERM");
  const deadline = Date.now() + 90_000;
  const running = () => existsSync(entry.file) && isAlive(entry.pid);
  while (running() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (running()) throw new Error(`the workbench at ${entry.url} (process ${entry.pid}) did not stop within 90 s`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
