// `workbench listen --integration KEY --forward-to URL [--json]`: attaches to an integration of a
// (shared) workbench and forwards its discovery and deliveries to a receiver on this machine
// (docs/listen.md). Needs an integrator or admin token on a shared workbench; runs until Ctrl-C.
import type { Command } from "commander";
import { workbenchToken, workbenchUrl } from "../client.ts";
import { parseForwardTo } from "../listen/forward-request.ts";
import { printListenerLine } from "../listen/listener-lines.ts";
import { runListener } from "../listen/run-listener.ts";
import { fail, type OutputMode } from "../output.ts";
import { usageError } from "../parse-options.ts";

const INTEGRATION_KEY = /^[A-Za-z0-9_-]{1,64}$/;

export function registerListenCommand(program: Command) {
  program
    .command("listen")
    .description("forward an integration's deliveries and discovery to a receiver on this machine (Ctrl-C detaches)")
    .requiredOption("--integration <key>", "the integration to attach to, e.g. north-psap")
    .requiredOption("--forward-to <url>", "the receiver's base URL on this machine, e.g. http://localhost:8080")
    .action(async (opts: { integration: string; forwardTo: string }) => {
      const mode: OutputMode = { json: Boolean(program.opts().json) };
      if (!INTEGRATION_KEY.test(opts.integration))
        fail(mode, usageError("--integration", opts.integration, "an integration key, e.g. north-psap").message, 2);
      const forwardTo = parseForwardTo(opts.forwardTo);
      if (!forwardTo)
        fail(
          mode,
          usageError("--forward-to", opts.forwardTo, "an http(s) URL without query, e.g. http://localhost:8080")
            .message,
          2,
        );
      const code = await runListener({
        workbenchUrl: workbenchUrl(),
        token: workbenchToken(),
        integration: opts.integration,
        forwardTo,
        print: (line) => printListenerLine(mode.json, line),
      }).catch((error: Error) => fail(mode, error.message));
      process.exit(code);
    });
}
