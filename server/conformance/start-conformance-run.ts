// Starts a persisted run in this process: the workbench runs the kit itself
// because the receiver verifies tokens against the workbench's JWKS, so only
// the workbench (holder of the private keys) can sign the valid token and the
// realistic forgeries. The row is written first, each result as it lands, the
// verdict last; callers poll the row (dashboard, CLI) or wait on the events.
import { randomUUID } from "node:crypto";
import type { Runtime } from "../runtime.ts";
import { AppError } from "../platform/errors.ts";
import { verdictOf, type CheckResult } from "./check.ts";
import { checksForVersion } from "./conformance-checks.ts";
import { conformanceEvents } from "./conformance-events.ts";
import { createConformanceContext } from "./context.ts";
import { runChecks } from "./run-checks.ts";
import { outboundPolicyOf } from "../platform/network/outbound-lookup.ts";
import type { OutboundTargetKind } from "../webhooks/sending/send-request.ts";
import { validateReceiverUrl } from "../webhooks/sending/validate-receiver-url.ts";
import { listenedKeyOf, receiverTarget } from "../webhooks/sending/receiver-url.ts";
import { listenerUrlOf } from "../webhooks/listen/listener-attachments.ts";

type Deps = Pick<Runtime, "db" | "clock" | "keys" | "env" | "logger">;

/** Used when no other agency exists to forge a wrong audience with. */
const FALLBACK_OTHER_AGENCY = "0b0c5b52-1c0e-4a57-9a57-0000000000ff";
/** workbench-decisions.md seed: North PSAP, the default when nothing names the agency. */
export const DEFAULT_AGENCY_ID = "0b0c5b52-1c0e-4a57-9a57-000000000001";

/**
 * `insecureDev`: the receiver may be plain http or self-signed — loopback only, or a host in
 * OUTBOUND_ALLOW (the outbound policy, the same as deliveries'). A URL naming one of this
 * workbench's embedded receivers runs against it on PUBLIC_URL, as deliveries do.
 */
export async function startConformanceRun(
  deps: Deps,
  input: { receiverUrl: string; agencyId?: string; insecureDev?: boolean },
): Promise<{ id: string; done: Promise<"passed" | "failed" | "error"> }> {
  const { receiverUrl, target, agencyId } = await resolveTarget(deps, input);
  const agency = await resolveAgency(deps, receiverUrl, input.agencyId ?? agencyId);
  const other = await deps.db.agency.findFirst({
    where: { id: { not: agency.id } },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  const id = randomUUID();
  await deps.db.conformanceRun.create({
    data: {
      id,
      receiverUrl,
      agencyId: agency.id,
      status: "running",
      startedAt: deps.clock.now(),
      clockOffsetMs: BigInt(deps.clock.offsetMs),
    },
  });
  const ctx = createConformanceContext({
    receiverUrl,
    target,
    agency,
    otherAgencyId: other?.id ?? FALLBACK_OTHER_AGENCY,
    keys: deps.keys,
    clock: deps.clock,
    env: deps.env,
  });
  const done = execute(deps, id, ctx);
  return { id, done };
}

async function execute(
  deps: Deps,
  id: string,
  ctx: ReturnType<typeof createConformanceContext>,
): Promise<"passed" | "failed" | "error"> {
  const results: CheckResult[] = [];
  let status: "passed" | "failed" | "error";
  try {
    await runChecks({
      // v3 or v2 checks, by the version /about declared (known after the first check).
      checks: (c) => checksForVersion(c.state.discovery?.about?.version),
      ctx,
      async onResult(progress) {
        results.push(progress.result);
        await deps.db.conformanceRun.update({
          where: { id },
          data: { results, aboutVersion: ctx.state.discovery?.about?.version ?? null },
        });
        conformanceEvents().emit("run:progress", id, progress);
      },
    });
    status = verdictOf(results);
    await deps.db.conformanceRun.update({ where: { id }, data: { status, finishedAt: deps.clock.now() } });
  } catch (err) {
    status = "error";
    deps.logger.error({ err, runId: id }, "conformance run failed");
    await deps.db.conformanceRun
      .update({
        where: { id },
        data: {
          status,
          finishedAt: deps.clock.now(),
          errorDetail: "The run stopped on an internal error; see the workbench log.",
        },
      })
      .catch(() => {});
  }
  conformanceEvents().emit("run:finished", id, status);
  return status;
}

/**
 * Where the kit's requests go: "listen:KEY" is the integration's attached listener (decision 0052;
 * its agency by default); else a URL under the outbound policy, or one of the embedded receivers.
 */
async function resolveTarget(
  deps: Deps,
  input: { receiverUrl: string; insecureDev?: boolean },
): Promise<{ receiverUrl: string; target: OutboundTargetKind; agencyId?: string }> {
  const insecureDev = input.insecureDev ?? false;
  const listened = listenedKeyOf(input.receiverUrl.trim());
  if (listened) {
    const attached = await deps.db.integrationListener.findUnique({
      where: { integrationKey: listened },
      select: { integration: { select: { agencyId: true } } },
    });
    if (!attached)
      throw new AppError(
        "ValidationFailed",
        `No listener is attached to ${listened}: run \`workbench listen\` first.`,
        [{ field: "receiverUrl", message: `no listener attached to ${listened}` }],
      );
    const { baseUrl, target } = receiverTarget(listenerUrlOf(listened), insecureDev, deps.env);
    return { receiverUrl: baseUrl, target, agencyId: attached.integration.agencyId };
  }
  const valid = await validateReceiverUrl({
    input: input.receiverUrl,
    insecureDev,
    env: deps.env,
    field: "receiverUrl",
  });
  const target: OutboundTargetKind =
    valid.kind === "embedded"
      ? { kind: "embedded", insecureDev: insecureDev || deps.env.PUBLIC_URL.startsWith("http:") }
      : { kind: "checked", insecureDev, policy: outboundPolicyOf(deps.env) };
  return { receiverUrl: valid.url, target };
}

/**
 * The agency whose audience the tokens carry: the one asked for; else the
 * integration registered for this receiver URL (embedded receivers are stored
 * as paths below PUBLIC_URL); else North PSAP.
 */
async function resolveAgency(
  deps: Deps,
  receiverUrl: string,
  agencyId?: string,
): Promise<{ id: string; displayName: string }> {
  if (agencyId) {
    const known = await deps.db.agency.findUnique({
      where: { id: agencyId.toLowerCase() },
      select: { id: true, displayName: true },
    });
    if (!known)
      throw new AppError("ValidationFailed", `No agency ${agencyId} in this workbench.`, [
        { field: "agencyId", message: "unknown agency" },
      ]);
    return known;
  }
  const publicUrl = deps.env.PUBLIC_URL;
  const candidates = [
    receiverUrl,
    receiverUrl.startsWith(publicUrl) ? receiverUrl.slice(publicUrl.length) : null,
  ].filter((u): u is string => !!u);
  const integration = await deps.db.integration.findFirst({
    where: { receiverUrl: { in: candidates.flatMap((u) => [u, `${u}/`]) } },
    select: { agencyId: true },
  });
  const found = await deps.db.agency.findUnique({
    where: { id: integration?.agencyId ?? DEFAULT_AGENCY_ID },
    select: { id: true, displayName: true },
  });
  if (!found)
    throw new AppError("ValidationFailed", "Name the agency the receiver serves (agencyId).", [
      { field: "agencyId", message: "required" },
    ]);
  return found;
}
