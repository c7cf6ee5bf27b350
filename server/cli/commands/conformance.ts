// `workbench conformance --receiver URL [--agency ID] [--junit FILE] [--json]`:
// asks the running workbench to run the kit (only it can sign tokens the
// receiver's JWKS lookup accepts), follows the run, prints a table (or the run
// as JSON), and exits 0 only when every required check passed.
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { usageError } from "../parse-options.ts";
import { workbenchUrl } from "../client.ts";
import { z } from "zod";
import { print, type OutputMode } from "../output.ts";
import { renderJunit } from "../../conformance/render-junit.ts";
import { renderRunTable } from "../../conformance/render-run-table.ts";

const POLL_MS = 250;

type Options = { receiver: string; agency?: string; junit?: string };
type Run = (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>;

export function registerConformanceCommands(program: Command, run: Run) {
  program
    .command("conformance")
    .description("check a webhook receiver against the v3 contract, or v2 when its /about declares 2.x (discovery, token validation, delivery semantics)")
    .requiredOption("--receiver <url>", "the receiver's base URL ({receiver_url}); https, or http on loopback")
    .option("--agency <id>", "the agency the receiver serves (token audience); default: its integration's agency, else North PSAP")
    .option("--junit <file>", "also write a JUnit XML report to this file")
    .action((options: Options) =>
      run(async (client, mode) => {
        if (options.agency && !z.uuid().safeParse(options.agency).success) throw usageError("--agency", options.agency, "an agency id (a UUID)");
        const { id } = await client.conformance.start.mutate({ receiverUrl: options.receiver, agencyId: options.agency });
        const live = !mode.json && process.stderr.isTTY;
        let result = await client.conformance.get.query({ id });
        while (result.status === "running") {
          if (live) process.stderr.write(`\rchecking… ${result.results.length}/${result.counts.total}`);
          await new Promise((r) => setTimeout(r, POLL_MS));
          result = await client.conformance.get.query({ id });
        }
        if (live) process.stderr.write("\r\x1b[K");
        if (options.junit) await writeFile(options.junit, renderJunit(result));
        const reportUrl = `${workbenchUrl()}/api/conformance/runs/${id}/report`;
        print(mode, { ...result, reportUrl }, () => `${renderRunTable(result, { width: process.stdout.columns })}\nReport: ${reportUrl}`);
        if (result.status !== "passed") process.exitCode = 1;
      })(),
    );
}
