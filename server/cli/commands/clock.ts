import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { usageError } from "../parse-options.ts";
import { print, type OutputMode } from "../output.ts";
import { parseDuration } from "../../platform/time/parse-duration.ts";

type ClockState = { now: string; offsetMs: number; realNow: string };

const human = (s: ClockState) => `workbench time ${s.now} (real time ${s.realNow}, offset ${s.offsetMs} ms)`;

export function registerClockCommands(
  program: Command,
  run: (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>,
) {
  const clock = program.command("clock").description("show or move the workbench clock");
  clock
    .command("show")
    .description("print workbench time and its offset")
    .action(
      run(async (client, mode) => {
        const state = await client.clock.show.query();
        print(mode, state, () => human(state));
      }),
    );
  clock
    .command("advance <duration>")
    .description("jump the clock ahead, e.g. 61m, 90s, 2h")
    .action((duration: string) =>
      run(async (client, mode) => {
        const byMs = parseDuration(duration);
        if (byMs === undefined) throw usageError("<duration>", duration, "a duration such as 61m, 90s, 2h or 1d");
        const state = await client.clock.advance.mutate({ byMs });
        print(mode, state, () => human(state));
      })(),
    );
  clock
    .command("reset")
    .description("back to real time")
    .action(
      run(async (client, mode) => {
        const state = await client.clock.reset.mutate();
        print(mode, state, () => human(state));
      }),
    );
}
