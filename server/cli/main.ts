// `workbench <command>`: drives a running workbench (WORKBENCH_URL, default
// http://localhost:3000) from scripts and CI. Every command takes --json. A shared
// workbench needs an API token: `workbench login`, or WORKBENCH_TOKEN (`workbench tokens create`).
import { Command } from "commander";
import { createWorkbenchClient, describeFailure, type WorkbenchClient } from "./client.ts";
import { fail, type OutputMode } from "./output.ts";
import { CliUsageError } from "./parse-options.ts";
import { registerClockCommands } from "./commands/clock.ts";
import { registerConformanceCommands } from "./commands/conformance.ts";
import { registerSeedCommands } from "./commands/seed.ts";
import { registerKeysCommands } from "./commands/keys.ts";
import { registerWebhookCommands } from "./commands/webhooks.ts";
import { registerReceiverCommands } from "./commands/receiver.ts";
import { registerSmsCommands } from "./commands/sms.ts";
import { registerSimulateCommands } from "./commands/simulate.ts";
import { registerEphemeralCommands } from "./commands/ephemeral.ts";
import { registerTokensCommands } from "./commands/tokens.ts";
import { registerLoginCommands } from "./commands/login.ts";
import { registerListenCommand } from "./commands/listen.ts";
import { registerCallsCommands } from "./commands/calls.ts";

const program = new Command()
  .name("workbench")
  .description("Command line for the Incident Platform Workbench")
  .option("--json", "print one JSON document instead of text")
  .showHelpAfterError();

/** Wraps a command body: builds the client, reads --json, turns failures into one clear line and exit code 1. */
function run(fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) {
  return async () => {
    const mode: OutputMode = { json: Boolean(program.opts().json) };
    try {
      await fn(createWorkbenchClient(), mode);
    } catch (error) {
      if (error instanceof CliUsageError) fail(mode, error.message, 2);
      fail(mode, describeFailure(error));
    }
  };
}

registerClockCommands(program, run);
registerConformanceCommands(program, run);
registerSeedCommands(program, run);
registerKeysCommands(program, run);
registerWebhookCommands(program, run);
registerReceiverCommands(program, run);
registerSmsCommands(program, run);
registerSimulateCommands(program, run);
registerEphemeralCommands(program);
registerTokensCommands(program, run);
registerLoginCommands(program);
registerListenCommand(program);
registerCallsCommands(program, run);

await program.parseAsync(process.argv);
