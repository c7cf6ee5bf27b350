// `workbench simulate …`: the caller side (server/simulator) from scripts.
// Inputs are validated by the simulator's zod schemas on the server; numbers
// are parsed here so a typo fails before the request, with one clear line.
import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { usageError } from "../parse-options.ts";
import { fail, print, type OutputMode } from "../output.ts";
import type { TSimulatorAction } from "../../simulator/simulator.schema.ts";

type Run = (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>;
type FixOpts = { lat?: string; lon?: string; accuracy?: string; altitude?: string; capturedAgo?: string };

const number = (mode: OutputMode, name: string, text: string | undefined, required = true): number | undefined => {
  if (text === undefined) {
    if (required) fail(mode, `--${name} is required`, 2);
    return undefined;
  }
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n)) throw usageError(`--${name}`, text, "a number");
  return n;
};

const fixOf = (mode: OutputMode, o: FixOpts) => ({
  latitude: number(mode, "lat", o.lat)!,
  longitude: number(mode, "lon", o.lon)!,
  accuracy: number(mode, "accuracy", o.accuracy)!,
  altitude: number(mode, "altitude", o.altitude, false) ?? null,
  capturedSecondsAgo: number(mode, "captured-ago", o.capturedAgo, false),
});

const withFix = (c: Command) =>
  c
    .requiredOption("--lat <deg>", "latitude")
    .requiredOption("--lon <deg>", "longitude")
    .requiredOption("--accuracy <m>", "accuracy in metres")
    .option("--altitude <m>", "altitude in metres")
    .option("--captured-ago <s>", "captured this many seconds before now");

type Act = (incidentId: string, build: (mode: OutputMode) => TSimulatorAction) => Promise<void>;

export function registerSimulateCommands(program: Command, run: Run) {
  const sim = program.command("simulate").description("caller-side changes and scripted scenarios (the simulator)");
  registerRaise(sim, run);
  const act: Act = (incidentId, build) =>
    run(async (client, mode) => {
      const outcome = await client.simulator.act.mutate({ incidentId, action: build(mode) });
      print(
        mode,
        outcome,
        () =>
          `${outcome.action}: ${outcome.changes.length ? outcome.changes.join(", ") : "no change recorded"}${outcome.version ? ` (version ${outcome.version})` : ""}`,
      );
    })();
  registerCallerActions(sim, act);
  registerScenarioCommands(sim, run);
}

function registerRaise(sim: Command, run: Run) {
  withFix(
    sim
      .command("raise")
      .description("a simulated caller raises an incident (Real; ConnectorAdmin = Test; Demo)")
      .requiredOption("--origin <origin>", "MobileApp|WebApp|Aml|GoogleEls|ConnectorAdmin|Demo")
      .option("--agency <id>", "owner agency (default: jurisdiction of the fix)")
      .option("--phone <e164>", "caller phone number"),
  ).action((o: FixOpts & { origin: string; agency?: string; phone?: string }) =>
    run(async (client, mode) => {
      const raised = await client.simulator.raise.mutate({
        origin: o.origin as never,
        location: fixOf(mode, o),
        agencyId: o.agency,
        phoneNumber: o.phone,
      });
      print(
        mode,
        raised,
        () => `${raised.purpose} incident ${raised.incidentId} owned by ${raised.owner}\n${raised.openUrl}`,
      );
    })(),
  );
  // `raise` has a fix by default; a fix-less raise is the tRPC call (the page, tests).
}

/** One command per simulator action: each builds the action and sends it (`act`). */
function registerCallerActions(sim: Command, act: Act) {
  withFix(
    sim
      .command("location <incidentId>")
      .description("a new Measured location")
      .requiredOption("--source <s>", "MobileApp|WebApp|Aml|GoogleEls|MobileAppSms"),
  ).action((id: string, o: FixOpts & { source: string }) =>
    act(id, (m) => ({ action: "location", source: o.source as never, fix: fixOf(m, o) })),
  );
  withFix(
    sim
      .command("replace-track <incidentId>")
      .description("discard a source's coarse fixes for one precise fix")
      .requiredOption("--source <s>", "MobileApp|WebApp|Aml|GoogleEls|MobileAppSms"),
  ).action((id: string, o: FixOpts & { source: string }) =>
    act(id, (m) => ({ action: "replaceTrack", source: o.source as never, fix: fixOf(m, o) })),
  );
  withFix(
    sim.command("open-sms <incidentId>").description("the caller opens the newest location SMS link (→ MobileAppSms)"),
  ).action((id: string, o: FixOpts) => act(id, (m) => ({ action: "openLocationSms", fix: fixOf(m, o) })));
  sim
    .command("link <incidentId>")
    .description("a data source linked")
    .requiredOption("--source <s>", "mobileApp|webApp|googleEls|appleEed")
    .action((id: string, o: { source: string }) =>
      act(id, () => ({ action: "linkDataSource", source: o.source as never })),
    );
  sim
    .command("device <incidentId>")
    .description("device info: battery and connection")
    .requiredOption("--battery <percent>")
    .option("--connection <type>", "Cellular2G|Cellular3G|Cellular4G|Cellular5G|Wifi|Unknown")
    .action((id: string, o: { battery: string; connection?: string }) =>
      act(id, (m) => ({
        action: "deviceInfo",
        batteryLevel: number(m, "battery", o.battery)!,
        internetConnectionType: (o.connection ?? null) as never,
      })),
    );
  sim
    .command("name <incidentId> <fullName>")
    .description("the caller's full name became known")
    .action((id: string, name: string) => act(id, () => ({ action: "fullName", fullName: name })));
  sim
    .command("phone <incidentId> <e164>")
    .description("a phone number became available")
    .action((id: string, phone: string) => act(id, () => ({ action: "phoneNumber", phoneNumber: phone })));
  sim
    .command("medical <incidentId>")
    .description("the caller shares medical data (a sample record)")
    .action((id: string) => act(id, () => ({ action: "medicData" })));
  sim
    .command("chat <incidentId>")
    .description("activate chat, or with --message send a caller message")
    .option("--message <text>")
    .action((id: string, o: { message?: string }) =>
      act(id, () => (o.message ? { action: "chatMessage", text: o.message } : { action: "activateChat" })),
    );
  sim
    .command("video <incidentId>")
    .description("live video: --start or --end")
    .option("--start")
    .option("--end")
    .action((id: string, o: { start?: boolean; end?: boolean }) =>
      act(id, (m) => {
        if (Boolean(o.start) === Boolean(o.end)) fail(m, "give exactly one of --start and --end", 2);
        return { action: o.start ? "activateLiveVideo" : "endLiveVideo" };
      }),
    );
  sim
    .command("close <incidentId>")
    .description("close the incident")
    .action((id: string) => act(id, () => ({ action: "close" })));
}

function registerScenarioCommands(sim: Command, run: Run) {
  sim
    .command("scenarios")
    .description("list the scripted scenarios")
    .action(
      run(async (client, mode) => {
        const list = await client.simulator.scenarios.query();
        print(mode, list, () =>
          list
            .map((s) => `${s.key.padEnd(24)} ${s.title}\n${" ".repeat(25)}${s.steps.length} steps: ${s.description}`)
            .join("\n"),
        );
      }),
    );
  sim
    .command("scenario <key>")
    .description("run a scripted scenario and follow its steps; exit 1 when a step fails")
    .action((key: string) =>
      run(async (client, mode) => {
        let run = await client.simulator.runScenario.mutate({ scenario: key as never });
        let printed = 0;
        for (;;) {
          if (!mode.json)
            for (
              ;
              printed < run.steps.length &&
              (run.steps[printed]!.state === "done" || run.steps[printed]!.state === "failed");
              printed++
            ) {
              const s = run.steps[printed]!;
              process.stdout.write(
                `${s.state === "done" ? "✓" : "✗"} ${printed + 1}/${run.steps.length} ${s.title}${s.detail ? ` — ${s.detail}` : ""}\n`,
              );
            }
          if (run.state !== "running") break;
          // The run executes in the workbench; follow it at a human pace.
          await new Promise((r) => setTimeout(r, 200));
          run = (await client.simulator.scenarioRun.query({ runId: run.id })) ?? run;
        }
        if (mode.json) print(mode, run, () => "");
        else
          print(mode, run, () =>
            run.state === "done" ? `done: incident ${run.incidentIds.join(", ")}` : `failed: ${run.error}`,
          );
        if (run.state === "failed") process.exit(1);
      })(),
    );
}
