// `workbench deliveries [list|export|replay]`, `workbench integrations …`, `workbench incidents resend`:
// the webhook engine from scripts and CI, through the dashboard's tRPC API.
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { print, type OutputMode } from "../output.ts";
import { CliUsageError, oneOf, wholeNumber } from "../parse-options.ts";
import { readExportRequests } from "../read-export.ts";

const DELIVERY_STATES = ["pending", "delivering", "delivered", "expired", "superseded"] as const;

type Run = (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>;

export function registerWebhookCommands(program: Command, run: Run) {
  registerDeliveryCommands(program, run);
  registerIntegrationCommands(program, run);
  registerResendCommand(program, run);
}

function registerDeliveryCommands(program: Command, run: Run) {
  const deliveries = program
    .command("deliveries")
    .description("webhook deliveries: list (the default), export for a bug report, replay to another receiver");
  deliveries
    .command("list", { isDefault: true })
    .description("webhook deliveries, oldest first, with their attempts")
    .option("--incident <id>", "only this incident")
    .option("--integration <key>", "only this integration")
    .option("--state <state>", "pending | delivering | delivered | expired | superseded")
    .option("--limit <n>", "at most this many (the newest), 1 to 5000", "500")
    .action((opts: { incident?: string; integration?: string; state?: string; limit: string }) =>
      run(async (client, mode) => {
        const state = oneOf("--state", opts.state, DELIVERY_STATES);
        const limit = wholeNumber("--limit", opts.limit, 1, 5_000);
        const rows = await client.deliveries.list.query({
          incidentId: opts.incident,
          integration: opts.integration,
          state,
          limit,
        });
        const json = rows.map(({ requestId, integration, incidentId, method, path, state, producedAt, attempts }) => ({
          requestId,
          integration,
          incidentId,
          method,
          path,
          state,
          producedAt,
          attempts,
        }));
        print(mode, json, () =>
          rows.length
            ? rows
                .map(
                  (r) =>
                    `${r.producedAt}  ${r.state.padEnd(10)} ${r.integration.padEnd(12)} ${r.method.padEnd(5)} ${r.path}  attempts ${r.attempts.length}${r.attempts.at(-1)?.error ? `  last: ${r.attempts.at(-1)!.error}` : ""}`,
                )
                .join("\n")
            : "no deliveries",
        );
      })(),
    );

  deliveries
    .command("export")
    .description("a delivery (--request) or all of an incident's (--incident) as one self-contained JSON file")
    .option("--request <id>", "the delivery's Service-Request-Id")
    .option("--incident <id>", "every delivery of this incident, in lane order")
    .option("--integration <key>", "with --incident: only to this integration")
    .option("--out <file>", "write the file here (default: print it)")
    .action((opts: { request?: string; incident?: string; integration?: string; out?: string }) =>
      run(async (client, mode) => {
        if (!!opts.request === !!opts.incident)
          throw new CliUsageError("deliveries export: give --request <id> or --incident <id>, one of the two.");
        if (opts.request && opts.integration)
          throw new CliUsageError("deliveries export: --integration goes with --incident, not --request.");
        const file = await client.deliveries.export.query(
          opts.request
            ? { requestId: opts.request }
            : { incidentId: opts.incident!, ...(opts.integration ? { integration: opts.integration } : {}) },
        );
        if (!opts.out) return print({ json: true }, file, () => "");
        await writeFile(opts.out, `${JSON.stringify(file, null, 2)}\n`);
        const summary = { file: opts.out, deliveries: file.deliveries.length, truncated: file.truncated };
        print(
          mode,
          summary,
          () =>
            `wrote ${file.deliveries.length} deliveries to ${opts.out}${file.truncated ? " (the oldest; more were left out)" : ""}`,
        );
      })(),
    );
  deliveries
    .command("replay <file>")
    .description("send an export's requests again, in order, to an integration's receiver (stops at the first refusal)")
    .requiredOption("--to <integration>", "the integration whose receiver gets them")
    .option("--keep-going", "send every request, even after one is refused")
    .action((file: string, opts: { to: string; keepGoing?: boolean }) =>
      run(async (client, mode) => {
        const requests = await readExportRequests(file);
        const result = await client.deliveries.replay.mutate({
          integration: opts.to,
          deliveries: requests,
          keepGoing: opts.keepGoing ?? false,
        });
        print(mode, result, () =>
          [
            `${result.accepted} of ${result.requested} accepted by ${result.integration} (${result.receiverUrl})`,
            ...result.steps.map(
              (st) =>
                `  ${String(st.index + 1).padStart(3)} ${st.method.padEnd(5)} ${st.path}  ${st.status ?? "—"} ${st.durationMs} ms${st.error ? `  ${st.error}` : ""}`,
            ),
          ].join("\n"),
        );
        if (result.accepted < result.requested) process.exitCode = 1;
      })(),
    );
}

function registerIntegrationCommands(program: Command, run: Run) {
  const integrations = program
    .command("integrations")
    .description("webhook integrations: receivers and their declared capabilities");
  integrations
    .command("list")
    .description("every integration with its discovery state")
    .action(
      run(async (client, mode) => {
        const rows = await client.integrations.list.query();
        print(mode, rows, () =>
          rows
            .map(
              (i) =>
                `${i.key.padEnd(12)} ${i.agency.padEnd(16)} ${i.resolvedUrl}${i.insecureDev ? " (insecure-dev)" : ""}  ${i.discovery ? `${i.discovery.status} v${i.discovery.version ?? "?"} [${i.discovery.flags.join(", ")}]${i.discovery.error ? ` — ${i.discovery.error}` : ""}` : "not discovered yet"}`,
            )
            .join("\n"),
        );
      }),
    );
  integrations
    .command("set <key>")
    .description("point an integration at a receiver (absolute URL, or a path on this workbench), then rediscover it")
    .requiredOption("--url <url>", "the receiver's {receiver_url}")
    .option(
      "--insecure-dev",
      "allow plain http and invalid certificates (loopback, or hosts in the workbench's OUTBOUND_ALLOW)",
      false,
    )
    .action((key: string, opts: { url: string; insecureDev: boolean }) =>
      run(async (client, mode) => {
        const result = await client.integrations.set.mutate({ key, url: opts.url, insecureDev: opts.insecureDev });
        print(
          mode,
          result,
          () =>
            `${key}: ${result.status}${result.error ? ` — ${result.error}` : ` (v${result.version}, ${result.flags.length} flags)`}`,
        );
      })(),
    );
  integrations
    .command("rediscover <key>")
    .description("GET /about again now")
    .action((key: string) =>
      run(async (client, mode) => {
        const result = await client.integrations.rediscover.mutate({ key });
        print(
          mode,
          result,
          () =>
            `${key}: ${result.status}${result.error ? ` — ${result.error}` : ` (v${result.version}, credential ${result.credential}, flags: ${result.flags.join(", ")})`}`,
        );
      })(),
    );
}

function registerResendCommand(program: Command, run: Run) {
  // Another command file may own the `incidents` group: add to it rather than declare it twice.
  const incidents =
    program.commands.find((c) => c.name() === "incidents") ?? program.command("incidents").description("incidents");
  incidents
    .command("resend <incidentId>")
    .description("re-send an incident's create-and-track sequence after an outage (rule 5)")
    .option("--integration <key>", "only to this integration")
    .action((incidentId: string, opts: { integration?: string }) =>
      run(async (client, mode) => {
        const result = await client.deliveries.resend.mutate({ incidentId, integration: opts.integration });
        print(
          mode,
          result,
          () =>
            `planned ${result.planned.length} events:\n${result.planned.map((p) => `  ${p.integration} ${p.method} ${p.path}`).join("\n")}`,
        );
      })(),
    );
}
