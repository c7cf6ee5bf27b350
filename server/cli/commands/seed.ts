import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { print, type OutputMode } from "../output.ts";

export function registerSeedCommands(
  program: Command,
  run: (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>,
) {
  const seed = program.command("seed").description("the seed data of workbench-decisions.md");
  seed
    .command("reset")
    .description("put all dev data back to the seed (the clock stays as it is)")
    .action(
      run(async (client, mode) => {
        const result = await client.system.resetSeed.mutate();
        print(mode, result, () => "data reset to the seed");
      }),
    );
}
