import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { print, type OutputMode } from "../output.ts";
import { wholeNumber } from "../parse-options.ts";

type Run = (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>;

export function registerSmsCommands(program: Command, run: Run) {
  const sms = program
    .command("sms")
    .description("the simulated location-link SMS (POST /v1/incidents/{id}/caller/locate)");
  sms
    .command("list")
    .description("list sent SMS, newest first")
    .option("--incident <incidentId>", "only this incident's")
    .option("--take <n>", "at most n (default 100)")
    .action((opts: { incident?: string; take?: string }) =>
      run(async (client, mode) => {
        const take = wholeNumber("--take", opts.take, 1, 500);
        const list = await client.inbound.smsList.query({ incidentId: opts.incident, take });
        print(mode, list, () =>
          list.length === 0
            ? "no SMS sent"
            : list
                .map(
                  (s) =>
                    `${s.sentAtUtc}  to ${s.sentTo}  incident ${s.incidentId}  ${s.openedAtUtc ? "opened" : "not opened"}  ${s.link}`,
                )
                .join("\n"),
        );
      })(),
    );
}
