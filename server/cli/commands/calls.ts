// `workbench calls …` and `workbench client-report CLIENT`: the client half of an integration from
// scripts and CI (docs/api-calls.md): what a partner's client called, its verdict from the spec's
// rules, and faults injected for it, through the dashboard's tRPC API.
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { print, type OutputMode } from "../output.ts";
import { CliUsageError, oneOf, wholeNumber } from "../parse-options.ts";
import { renderClientReportJunit, renderClientReportText } from "../../client-calls/render-client-report.ts";

type Run = (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>;
type CallSummary = Awaited<ReturnType<WorkbenchClient["calls"]["list"]["query"]>>["calls"][number];

const WINDOWS = ["15m", "1h", "6h", "24h"] as const;
const SINCE = ["15m", "1h", "6h", "24h", "7d"] as const;
const SURFACES = ["token", "v1", "account"] as const;

function describeCall(c: CallSummary): string {
  const who = c.clientId ?? "(no client)";
  const what = `${String(c.status).padEnd(3)} ${c.problemCode ?? ""}`.trim();
  const marks = [
    c.fault ? `[fault ${c.fault}]` : "",
    c.console ? "[console]" : "",
    c.advice.length ? `[advice: ${[...new Set(c.advice.map((a) => a.rule))].join(", ")}]` : "",
  ].filter(Boolean);
  return `${c.receivedAt}  ${c.id.padStart(6)}  ${what.padEnd(28)} ${who.padEnd(16)} ${c.operation}  ${c.durationMs} ms ${marks.join(" ")}`.trimEnd();
}

export function registerCallsCommands(program: Command, run: Run) {
  const calls = program
    .command("calls")
    .description("what partner clients called (/connect/token, /v1, /Account), with advice; faults for them");

  calls
    .command("list", { isDefault: true })
    .description("calls, newest first, each with the advice it earned")
    .option("--client <id>", "only this client")
    .option("--since <window>", "15m | 1h | 6h | 24h", "1h")
    .option("--surface <surface>", "token | v1 | account")
    .option("--status <n>", "only this HTTP status")
    .option("--problem <code>", "only this problem code or OAuth error, e.g. ValidationFailed, invalid_client")
    .option("--incident <id>", "only calls about this incident")
    .option("--advice", "only calls with advice")
    .option("--limit <n>", "at most this many, 1 to 500", "100")
    .action(
      (opts: {
        client?: string;
        since: string;
        surface?: string;
        status?: string;
        problem?: string;
        incident?: string;
        advice?: boolean;
        limit: string;
      }) =>
        run(async (client, mode) => {
          const list = await client.calls.list.query({
            clientId: opts.client,
            within: oneOf("--since", opts.since, WINDOWS),
            surface: oneOf("--surface", opts.surface, SURFACES),
            status: wholeNumber("--status", opts.status, 100, 599),
            problemCode: opts.problem,
            incidentId: opts.incident,
            hasAdvice: opts.advice ? true : undefined,
            limit: wholeNumber("--limit", opts.limit, 1, 500),
          });
          print(mode, list, () => {
            const lines = list.calls.length ? list.calls.map(describeCall) : ["no calls recorded in that window"];
            if (list.dropped.count > 0)
              lines.push(`${list.dropped.count} calls not recorded under load (last ${list.dropped.lastDropAt})`);
            return lines.join("\n");
          });
        })(),
    );

  calls
    .command("show <id>")
    .description("one call whole: request, answer, the token's facts, advice, what it changed")
    .action((id: string) =>
      run(async (client, mode) => {
        if (!/^\d{1,19}$/.test(id))
          throw new CliUsageError(`<id>: got ${JSON.stringify(id)}, takes a call id (a number)`);
        const call = await client.calls.get.query({ id });
        print(mode, call, () =>
          [
            describeCall(call),
            `request headers: ${JSON.stringify(call.request.headers)}`,
            call.requestBody !== null ? `request body: ${call.requestBody}` : "",
            `answer: ${call.status} ${JSON.stringify(call.response.headers)}`,
            call.responseBody !== null ? `answer body: ${call.responseBody}` : "",
            call.token ? `token: ${JSON.stringify(call.token)}` : "",
            call.changes.length ? `changes: ${call.changes.map((c) => `#${c.seq} ${c.kind}`).join(", ")}` : "",
            call.deliveries.length
              ? `deliveries: ${call.deliveries.map((d) => `${d.integrationKey} ${d.eventName} ${d.state}`).join(", ")}`
              : "",
            ...call.advice.map((a) => `${a.severity}: ${a.title} — ${a.seen} Fix: ${a.fix}`),
          ]
            .filter(Boolean)
            .join("\n"),
        );
      })(),
    );

  calls
    .command("fault")
    .description(
      "break the platform for a client: ok|http-503|http-500|http-429|slow:<ms>|reset; without --mode, list faults",
    )
    .option("--client <id>", "only this client (default: every client)")
    .option("--surface <surface>", "token | v1 | account")
    .option("--operation <op>", 'one operation, e.g. "POST /v1/incidents" (default: the whole surface)')
    .option("--mode <mode>", "ok clears the fault of that client, surface and operation")
    .option("--for <duration>", "how long, e.g. 10m (workbench clock)")
    .option("--count <n>", "for the next N calls")
    .option("--percent <p>", "for that share of calls")
    .option("--retry-after <s>", "Retry-After of http-503 and http-429, in seconds (default 5)")
    .option("--clear-all", "clear every fault")
    .action(
      (opts: {
        client?: string;
        surface?: string;
        operation?: string;
        mode?: string;
        for?: string;
        count?: string;
        percent?: string;
        retryAfter?: string;
        clearAll?: boolean;
      }) =>
        run(async (client, mode) => {
          if (opts.clearAll) {
            const { cleared } = await client.calls.faults.clear.mutate({});
            return print(mode, { cleared }, () => `cleared ${cleared} fault${cleared === 1 ? "" : "s"}`);
          }
          if (opts.mode) {
            const surface = oneOf("--surface", opts.surface ?? "", SURFACES);
            const fault = await client.calls.faults.set.mutate({
              clientId: opts.client ?? null,
              surface: surface!,
              operation: opts.operation ?? null,
              mode: opts.mode,
              for: opts.for,
              count: wholeNumber("--count", opts.count, 1, 10_000),
              percent: wholeNumber("--percent", opts.percent, 1, 100),
              retryAfterS: wholeNumber("--retry-after", opts.retryAfter, 0, 3_600),
            });
            return print(mode, fault, () => (fault ? `fault set: ${fault.description}` : "fault cleared"));
          }
          const faults = await client.calls.faults.list.query();
          print(mode, faults, () =>
            faults.length ? faults.map((f) => `${f.id}  ${f.description}`).join("\n") : "no faults",
          );
        })(),
    );

  program
    .command("client-report <client>")
    .description("the verdict on a partner's client from the spec's rules; exit 1 on errors (for CI)")
    .option("--since <window>", "15m | 1h | 6h | 24h | 7d", "24h")
    .option("--junit <file>", "also write JUnit XML (a testcase per rule)")
    .action((clientId: string, opts: { since: string; junit?: string }) =>
      run(async (client, mode) => {
        const report = await client.calls.report.query({
          clientId,
          since: oneOf("--since", opts.since, SINCE),
        });
        if (opts.junit) await writeFile(opts.junit, renderClientReportJunit(report));
        print(mode, report, () => renderClientReportText(report));
        // Nothing recorded is no verdict: the suite did not reach this workbench, or named another client.
        if (report.calls === 0 || report.verdict === "errors") process.exitCode = 1;
      })(),
    );
}
