import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { print, type OutputMode } from "../output.ts";

export function registerKeysCommands(
  program: Command,
  run: (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>,
) {
  const keys = program.command("keys").description("the identity server's signing keys (JWKS)");
  keys
    .command("list")
    .description("list signing keys: current, still published, retired")
    .action(
      run(async (client, mode) => {
        const list = await client.identity.keys.list.query();
        print(mode, list, () =>
          list
            .map(
              (k) => `${k.kid}  ${k.state}${k.retireAfter ? `  (published until ${k.retireAfter.toISOString()})` : ""}`,
            )
            .join("\n"),
        );
      }),
    );
  keys
    .command("rotate")
    .description("make a new signing key current; the previous one stays in the JWKS until its tokens have expired")
    .action(
      run(async (client, mode) => {
        const result = await client.identity.keys.rotate.mutate();
        print(
          mode,
          result,
          () =>
            `new current key ${result.kid}` +
            (result.previousKid ? `; ${result.previousKid} stays published until ${result.previousRetiresAt}` : ""),
        );
      }),
    );
}
