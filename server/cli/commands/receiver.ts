// `workbench receiver …`: the embedded reference receivers (capabilities, faults,
// what they recorded).
import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { print, type OutputMode } from "../output.ts";
import { usageError, wholeNumber } from "../parse-options.ts";

type Run = (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>;
type Receiver = Awaited<ReturnType<WorkbenchClient["receivers"]["get"]["query"]>>;
type FaultState = Receiver["fault"];

const collect = (value: string, previous: string[] = []) => [...previous, value];

const describeFault = (f: FaultState) =>
  f.state === "none"
    ? "ok (no fault)"
    : f.state === "scheduled"
      ? `${f.mode} scheduled: starts in ${seconds(f.remainingMs)}${f.endsAt ? `, ends ${f.endsAt}` : ""}`
      : `${f.mode} active${f.remainingMs === null ? " until changed" : `, ${seconds(f.remainingMs)} left`}`;
const seconds = (ms: number | null) => (ms === null ? "—" : `${Math.ceil(ms / 1000)}s`);

function describeCapabilities(r: Receiver) {
  const lines = [`${r.key}: version ${r.declaration.version}, allowsMonitoring ${r.declaration.allowsMonitoring}`];
  for (const f of r.flags) lines.push(`  ${f.enabled ? "[x]" : "[ ]"} incident.${f.flag}`);
  if (r.declarationProblem) lines.push(`  ! ${r.declarationProblem}`);
  return lines.join("\n");
}

/** "incident.labelChanged=false" → ["incident.labelChanged", false]. */
function parseSet(text: string): [string, boolean] | undefined {
  const m = /^([A-Za-z.]+)=(true|false)$/.exec(text.trim());
  return m ? [m[1]!, m[2] === "true"] : undefined;
}

export function registerReceiverCommands(program: Command, run: Run) {
  const receiver = program
    .command("receiver")
    .description("the embedded reference receivers: capabilities, faults, recorded events");

  receiver
    .command("list")
    .description("every embedded receiver with its fault and what it recorded")
    .action(
      run(async (client, mode) => {
        const list = await client.receivers.list.query();
        print(mode, list, () =>
          list
            .map(
              (r) =>
                `${r.key.padEnd(14)} ${r.path.padEnd(26)} v${r.declaration.version}  fault: ${describeFault(r.fault)}  network: ${describeFault(r.networkFault)}`,
            )
            .join("\n"),
        );
      }),
    );

  receiver
    .command("capabilities <key>")
    .description("show or change the /about declaration; a change makes the engine rediscover")
    .option("--set <flag=bool>", "e.g. incident.labelChanged=false (repeatable)", collect)
    .option("--version <3.x>", "the declared version")
    .option("--allows-monitoring <bool>", "true or false")
    .action((key: string, opts: { set?: string[]; version?: string; allowsMonitoring?: string }) =>
      run(async (client, mode) => {
        const set: Record<string, boolean> = {};
        for (const s of opts.set ?? []) {
          const parsed = parseSet(s);
          if (!parsed) throw usageError("--set", s, "flag=true or flag=false, e.g. incident.labelChanged=false");
          set[parsed[0]] = parsed[1];
        }
        if (opts.allowsMonitoring !== undefined && !["true", "false"].includes(opts.allowsMonitoring))
          throw usageError("--allows-monitoring", opts.allowsMonitoring, "true or false");
        const changing =
          Object.keys(set).length > 0 || opts.version !== undefined || opts.allowsMonitoring !== undefined;
        if (changing)
          await client.receivers.setCapabilities.mutate({
            key,
            set,
            version: opts.version,
            allowsMonitoring: opts.allowsMonitoring === undefined ? undefined : opts.allowsMonitoring === "true",
          });
        const r = await client.receivers.get.query({ key });
        print(mode, { key, declaration: r.declaration, problem: r.declarationProblem }, () => describeCapabilities(r));
      })(),
    );

  receiver
    .command("fault <key>")
    .description(
      "make a receiver misbehave: ok|http-500|http-503|http-201|timeout|slow:<ms>|flaky:<percent>|reject-token|down",
    )
    .option("--mode <mode>", "the fault; without it, show the current one")
    .option("--for <duration>", "how long, e.g. 10m (workbench clock)")
    .option("--at <time>", "start later: +5m or an ISO timestamp (an outage window)")
    .action((key: string, opts: { mode?: string; for?: string; at?: string }) =>
      run(async (client, mode) => {
        const state = opts.mode
          ? await client.receivers.setFault.mutate({ key, mode: opts.mode, for: opts.for, at: opts.at })
          : (await client.receivers.get.query({ key })).fault;
        print(mode, state, () => `${key}: ${describeFault(state)}`);
      })(),
    );

  receiver
    .command("network-fault <key>")
    .description("dispatcher-side network fault for any integration (external receivers too): ok|refused|timeout")
    .requiredOption("--mode <mode>", "ok, refused or timeout")
    .option("--for <duration>", "how long, e.g. 10m (workbench clock)")
    .option("--at <time>", "start later: +5m or an ISO timestamp")
    .action((key: string, opts: { mode: string; for?: string; at?: string }) =>
      run(async (client, mode) => {
        const state = await client.receivers.setNetworkFault.mutate({
          key,
          mode: opts.mode,
          for: opts.for,
          at: opts.at,
        });
        print(mode, state, () => `${key} (dispatcher side): ${describeFault(state)}`);
      })(),
    );

  receiver
    .command("events <key>")
    .description("what the receiver recorded, newest first, with duplicates and anomalies marked")
    .option("--incident <id>", "only this incident")
    .option("--limit <n>", "how many (default 100)")
    .action((key: string, opts: { incident?: string; limit?: string }) =>
      run(async (client, mode) => {
        const limit = wholeNumber("--limit", opts.limit, 1, 1_000);
        const events = await client.receivers.events.query({ key, incidentId: opts.incident, limit });
        print(mode, events, () =>
          events.length === 0
            ? `${key}: nothing recorded`
            : events
                .map((e) =>
                  [
                    e.receivedAt,
                    String(e.status).padEnd(3),
                    e.method.padEnd(5),
                    e.path,
                    e.isTest ? "[TEST]" : "",
                    e.duplicates ? `[duplicate x${e.duplicates}]` : "",
                    e.outcome !== "accepted" ? `[${e.outcome}: ${e.detail}]` : "",
                    e.anomalies.length ? `[anomaly: ${e.anomalies.join(", ")}]` : "",
                  ]
                    .filter(Boolean)
                    .join(" "),
                )
                .join("\n"),
        );
      })(),
    );
}
