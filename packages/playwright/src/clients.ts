// The client half of an integration in a QA suite (the workbench's docs/api-calls.md): the verdict
// on a partner client from the spec's rules, over its calls since the test started, and faults that
// break the platform for it. Copies of the workbench's report shapes, held to theirs by
// server-copies.test.ts.
import { spawn } from "node:child_process";
import { workbenchCli } from "./ephemeral.ts";
import type { WorkbenchApi } from "./workbench-api.ts";

export type AdviceRule =
  | "token-per-call"
  | "token-expired"
  | "agency-context"
  | "psap-id"
  | "browser-credentials"
  | "signin-token-encoded-twice"
  | "create-not-repeatable"
  | "duplicate-incidents"
  | "refused-resent-unchanged"
  | "retry-before-retry-after"
  | "retry-without-backoff"
  | "call-end-repeated"
  | "conflict-recovery";

/** One piece of advice about one call: the rule, what was seen there, and the fix. */
export type Advice = {
  rule: AdviceRule;
  severity: "error" | "warning";
  title: string;
  spec: string;
  fix: string;
  callId: string;
  clientId: string | null;
  seen: string;
};

export type ClientReport = {
  clientId: string;
  calls: number;
  errors: number;
  warnings: number;
  verdict: "clean" | "warnings" | "errors";
  since: string;
  advice: Advice[];
};

export type ClientFaultOptions = {
  surface: "token" | "v1" | "account";
  mode: "ok" | "http-503" | "http-500" | "http-429" | `slow:${number}` | "reset";
  /** One operation, e.g. "POST /v1/incidents" (default: the whole surface). */
  operation?: string;
  /** For the next N calls. */
  count?: number;
  /** For a while, e.g. "10m" (workbench clock). */
  for?: string;
  /** For that share of calls. */
  percent?: number;
  /** Retry-After of http-503 and http-429, in seconds (default 5). */
  retryAfterS?: number;
};

/** A partner client as the subject of `await expect(client).toHaveNoAdvice()`. */
export type PartnerClient = {
  readonly clientId: string;
  /** Its verdict over the calls it made since the test started. */
  report(): Promise<ClientReport>;
};

export type ClientControl = {
  /** The partner client `clientId` (default partner-cad), judged over its calls since this test started. */
  client(clientId?: string): PartnerClient;
  /** Breaks the platform for a client (null: every client); every fault the test set is cleared after it. */
  fault(clientId: string | null, options: ClientFaultOptions): Promise<void>;
  /** Runs `workbench client-report CLIENT` against this workbench, as a partner's CI would after its suite. */
  runClientReport(clientId: string, options?: { junit?: string }): Promise<{ code: number; stdout: string }>;
};

/** `afterCallId`: the newest call recorded when the test started (null: none), so only the test's own count. */
export function clientControl(
  workbench: { url: string; api: WorkbenchApi; token?: string },
  afterCallId: string | null,
) {
  const client = (clientId = "partner-cad"): PartnerClient => ({
    clientId,
    report: () =>
      workbench.api.query<ClientReport>("calls.report", {
        clientId,
        since: "7d",
        ...(afterCallId ? { afterId: afterCallId } : {}),
      }),
  });
  const control: ClientControl = {
    client,
    async fault(clientId, options) {
      await workbench.api.mutate("calls.faults.set", { clientId, ...options });
    },
    runClientReport(clientId, options = {}) {
      const { command, args } = workbenchCli();
      const child = spawn(
        command,
        [...args, "client-report", clientId, "--since", "7d", ...(options.junit ? ["--junit", options.junit] : [])],
        {
          env: {
            ...process.env,
            WORKBENCH_URL: workbench.url,
            ...(workbench.token ? { WORKBENCH_TOKEN: workbench.token } : {}),
          },
        },
      );
      let stdout = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stdout += d.toString()));
      return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? 1, stdout })));
    },
  };
  return control;
}
