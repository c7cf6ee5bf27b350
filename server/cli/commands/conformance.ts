// `workbench conformance --receiver URL [--insecure-dev] [--agency ID] [--junit FILE] [--json]`:
// asks the running workbench to run the kit (only it can sign tokens the
// receiver's JWKS lookup accepts), follows the run, prints a table (or the run
// as JSON), and exits 0 only when every required check passed.
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { createWorkbenchClient, workbenchUrl } from "../client.ts";
import { startEphemeralWorkbench } from "../ephemeral/start-ephemeral-workbench.ts";
import { usageError, wholeNumber } from "../parse-options.ts";
import { z } from "zod";
import { print, type OutputMode } from "../output.ts";
import { renderJunit } from "../../conformance/render-junit.ts";
import { renderRunTable } from "../../conformance/render-run-table.ts";

const POLL_MS = 250;

type Options = {
  receiver: string;
  agency?: string;
  junit?: string;
  insecureDev: boolean;
  ephemeral?: boolean;
  port?: string;
};
type Run = (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>;

export function registerConformanceCommands(program: Command, run: Run) {
  program
    .command("conformance")
    .description(
      "check a webhook receiver against the v3 contract, or v2 when its /about declares 2.x (discovery, token validation, delivery semantics)",
    )
    .requiredOption(
      "--receiver <url>",
      "the receiver's base URL ({receiver_url}); https with a valid certificate unless --insecure-dev",
    )
    .option(
      "--insecure-dev",
      "allow plain http and self-signed certificates (loopback, or hosts in the workbench's OUTBOUND_ALLOW)",
      false,
    )
    .option(
      "--agency <id>",
      "the agency the receiver serves (token audience); default: its integration's agency, else North PSAP",
    )
    .option("--junit <file>", "also write a JUnit XML report to this file")
    .option(
      "--ephemeral",
      "start a throwaway workbench for this run and tear it down afterwards (no WORKBENCH_URL needed)",
    )
    .option(
      "--port <port>",
      "with --ephemeral: its port (the receiver must trust http://localhost:PORT as its token issuer)",
    )
    .action((options: Options) =>
      run(async (client, mode) => {
        if (options.agency && !z.uuid().safeParse(options.agency).success)
          throw usageError("--agency", options.agency, "an agency id (a UUID)");
        const port = wholeNumber("--port", options.port, 1, 65535);
        if (port !== undefined && !options.ephemeral)
          throw usageError(
            "--port",
            options.port!,
            "a port only with --ephemeral (otherwise WORKBENCH_URL names the workbench)",
          );
        if (!options.ephemeral) return runConformance(client, workbenchUrl(), options, mode);
        const workbench = await startEphemeralWorkbench({ port, log: (line) => process.stderr.write(`${line}\n`) });
        try {
          await runConformance(createWorkbenchClient(workbench.url), workbench.url, options, mode);
        } finally {
          await workbench.stop();
        }
      })(),
    );
}

async function runConformance(client: WorkbenchClient, baseUrl: string, options: Options, mode: OutputMode) {
  const { id } = await client.conformance.start.mutate({
    receiverUrl: options.receiver,
    agencyId: options.agency,
    insecureDev: options.insecureDev,
  });
  const live = !mode.json && process.stderr.isTTY;
  let result = await client.conformance.get.query({ id });
  while (result.status === "running") {
    if (live) process.stderr.write(`\rchecking… ${result.results.length}/${result.counts.total}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
    result = await client.conformance.get.query({ id });
  }
  if (live) process.stderr.write("\r\x1b[K");
  if (options.junit) await writeFile(options.junit, renderJunit(result));
  const reportUrl = `${baseUrl}/api/conformance/runs/${id}/report`;
  print(
    mode,
    { ...result, reportUrl },
    () => `${renderRunTable(result, { width: process.stdout.columns })}\nReport: ${reportUrl}`,
  );
  if (result.status !== "passed") process.exitCode = 1;
}
