import type { Command } from "commander";
import type { WorkbenchClient } from "../client.ts";
import { fail, print, type OutputMode } from "../output.ts";

const ROLES = ["viewer", "integrator", "admin"] as const;
type Run = (fn: (client: WorkbenchClient, mode: OutputMode) => Promise<void>) => () => Promise<void>;

/** API tokens of a shared workbench (admins only): what CI sets as WORKBENCH_TOKEN. */
export function registerTokensCommands(program: Command, run: Run) {
  const tokens = program
    .command("tokens")
    .description("API tokens for the CLI and scripts on a shared workbench (admin)");
  tokens
    .command("list")
    .description("list API tokens (never their values)")
    .action(
      run(async (client, mode) => {
        const list = await client.access.apiTokens.list.query();
        print(mode, list, () =>
          list.length === 0
            ? "no API tokens"
            : list
                .map(
                  (t) =>
                    `${t.id}  ${t.role.padEnd(10)} ${t.name}${t.revokedAt ? " (revoked)" : t.expiresAt ? ` (expires ${t.expiresAt.toISOString()})` : ""}`,
                )
                .join("\n"),
        );
      }),
    );
  tokens
    .command("create <name>")
    .description("create an API token; its value is printed once")
    .option("--role <role>", "viewer, integrator or admin", "viewer")
    .option("--expires-in-days <days>", "days until it expires (default: until revoked)")
    .action((name: string, opts: { role: string; expiresInDays?: string }) =>
      run(async (client, mode) => {
        const role = ROLES.find((r) => r === opts.role);
        if (!role) fail(mode, `--role must be one of ${ROLES.join(", ")}.`, 2);
        const days = opts.expiresInDays === undefined ? undefined : Number(opts.expiresInDays);
        if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 366))
          fail(mode, "--expires-in-days must be a whole number from 1 to 366.", 2);
        const created = await client.access.apiTokens.create.mutate({ name, role, expiresInDays: days });
        print(
          mode,
          created,
          () =>
            `${created.token}\n(API token ${created.id}, role ${created.role}: shown once; set it as WORKBENCH_TOKEN)`,
        );
      })(),
    );
  tokens
    .command("revoke <id>")
    .description("revoke an API token at once")
    .action((id: string) =>
      run(async (client, mode) => {
        const revoked = await client.access.apiTokens.revoke.mutate({ id });
        print(mode, revoked, () => `revoked API token ${revoked.id} (${revoked.name})`);
      })(),
    );
}
