// Discovery of one integration (platform-interface.md, "Webhook receiver token
// validation" and receiver-route rule 1): GET {receiver_url}/about with the
// legacy PsapConnector credential first, and on 401/403 again with Publisher;
// the declaration is parsed, its major version read from `version`, and a v3
// receiver declaring neither incident.created nor incident.changed rejected
// (logged and retried; its events wait in the queue up to their hour).
import type { Runtime } from "../../runtime.ts";
import { ZAboutDeclaration, flattenSupports, majorVersionOf } from "../../webhook-contracts/v3/capabilities.schema.ts";
import type { V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { getServiceToken, type ServiceIdentity } from "../sending/service-token-cache.ts";
import { refusalOf, sendRequest, type SendResult } from "../sending/send-request.ts";
import { traceLogFieldsOr, type TraceSpan } from "../../platform/tracing/tracing.ts";
import { endDiscoverySpan, startDiscoverySpan } from "./trace-discovery.ts";
import { receiverTarget } from "../sending/receiver-url.ts";
import { listenerUrlOf } from "../listen/listener-attachments.ts";
import { webhookEvents } from "../webhook-events.ts";
import { planHeldChanges } from "../planning/plan-held-changes.ts";
import { supersedeQueuedEvents } from "../planning/supersede-queued-events.ts";

/**
 * Accepted declarations are refreshed every 10 minutes; rejected ones retried every 30 s; an
 * unreachable /about every 5 s (at start-up the embedded receivers answer only once the HTTP
 * server listens, a few seconds after the workers start, and events wait for discovery).
 */
export const REFRESH_ACCEPTED_MS = 10 * 60_000;
export const RETRY_FAILED_MS = 30_000;
export const RETRY_UNREACHABLE_MS = 5_000;

/** The webhook contracts the service sends: v1 and v2 (frozen) and v3. */
export const SERVED_MAJOR_VERSIONS: readonly number[] = [1, 2, 3];

export type DiscoveryStatus = "active" | "rejected" | "unreachable";
export type DiscoveryResult = {
  integrationKey: string;
  status: DiscoveryStatus;
  version: string | null;
  majorVersion: number | null;
  flags: V3Flag[];
  credential: ServiceIdentity | null;
  error: string | null;
};

/**
 * Reads one integration's /about and saves what it says. With `signal`: once it is aborted (the
 * process is stopping, and its own receivers stop answering), the answer is neither saved nor
 * logged, and the call rejects with the signal's reason.
 */
export async function discoverIntegration(
  runtime: Runtime,
  integrationKey: string,
  options: { signal?: AbortSignal } = {},
): Promise<DiscoveryResult> {
  const integration = await runtime.db.integration.findUniqueOrThrow({
    where: { key: integrationKey },
    include: { listener: { select: { attachmentId: true } } },
  });
  // An attached listener takes the integration's /about too (decision 0052).
  const routedUrl = integration.listener ? listenerUrlOf(integrationKey) : integration.receiverUrl;
  const receiver = receiverTarget(routedUrl, integration.insecureDev, runtime.env);
  const url = `${receiver.baseUrl}/about`;
  const base: DiscoveryResult = {
    integrationKey,
    status: "unreachable",
    version: null,
    majorVersion: null,
    flags: [],
    credential: null,
    error: null,
  };
  // With tracing on, the last GET /about's span: the warnings of its outcome carry its ids.
  let aboutSpan: TraceSpan | null = null;
  const result = await (async (): Promise<DiscoveryResult & { allowsMonitoring?: boolean }> => {
    const refusal = refusalOf(url, receiver.target);
    if (refusal) return { ...base, error: refusal };
    const get = async (identity: ServiceIdentity): Promise<SendResult> => {
      const token = await getServiceToken(runtime, integration.agencyId, identity);
      const span = (aboutSpan = startDiscoverySpan(integrationKey, url));
      const headers = { accept: "application/json", authorization: `Bearer ${token}` };
      const sent = await sendRequest({
        url,
        method: "GET",
        headers: span === null ? headers : { ...headers, traceparent: span.traceparent },
        body: null,
        target: receiver.target,
        signal: options.signal,
      });
      if (span !== null) endDiscoverySpan(span, sent);
      return sent;
    };
    let credential: ServiceIdentity = "PsapConnector";
    let response = await get(credential);
    if (response.status === 401 || response.status === 403) response = await get((credential = "Publisher"));
    if (response.status !== 200)
      return { ...base, error: response.error ?? `GET /about answered HTTP ${response.status}` };
    // A 200 whose body was cut short (past the read cap, or the deadline) is not a whole declaration.
    if (response.error) return { ...base, error: `GET /about: ${response.error}` };
    let json: unknown;
    try {
      json = JSON.parse(response.body ?? "");
    } catch {
      return { ...base, status: "rejected", credential, error: "GET /about did not answer JSON" };
    }
    const parsed = ZAboutDeclaration.safeParse(json);
    if (!parsed.success)
      return {
        ...base,
        status: "rejected",
        credential,
        error: `invalid capability declaration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      };
    const { version, supports, allowsMonitoring } = parsed.data;
    const majorVersion = majorVersionOf(version) ?? null;
    const flags = majorVersion === 3 ? flattenSupports(supports) : [];
    const found = { ...base, version, majorVersion, flags, credential, allowsMonitoring: allowsMonitoring ?? false };
    // Versioning rule 3: the declared major version selects the contract (no separate configuration);
    // one the service does not serve selects nothing, so the declaration is rejected, not accepted.
    if (majorVersion === null || !SERVED_MAJOR_VERSIONS.includes(majorVersion)) {
      return {
        ...found,
        status: "rejected",
        error: `version ${JSON.stringify(version)} has no major version the service serves (${SERVED_MAJOR_VERSIONS.join(", ")})`,
      };
    }
    if (majorVersion === 3 && !flags.includes("incident.created") && !flags.includes("incident.changed")) {
      return {
        ...found,
        status: "rejected",
        error: "the declaration supports neither incident.created nor incident.changed",
      };
    }
    return { ...found, status: "active" };
  })();
  options.signal?.throwIfAborted();
  await saveDiscovery(runtime, result, aboutSpan);
  // Accepted: no event of another major version is sent to it any more (Versioning rule 3, decision
  // 0049): its lanes' queued ones are superseded, each incident sent anew under this one.
  if (result.status === "active") await supersedeQueuedEvents(runtime, integrationKey);
  // Accepted: the changes its lanes held meanwhile are planned against this declaration now.
  if (result.status === "active" || result.status === "unreachable") await planHeldChanges(runtime, integrationKey);
  return result;
}

async function saveDiscovery(
  runtime: Runtime,
  r: DiscoveryResult & { allowsMonitoring?: boolean },
  span: TraceSpan | null,
) {
  const now = runtime.clock.now();
  const previous = await runtime.db.webhookCapabilities.findUnique({ where: { integrationKey: r.integrationKey } });
  // An /about that is merely unreachable keeps an earlier accepted declaration: deliveries have their own retries.
  const keepPrevious = r.status === "unreachable" && previous?.status === "active";
  const data = keepPrevious
    ? { error: r.error, checkedAt: now, nextCheckAt: new Date(now.getTime() + RETRY_UNREACHABLE_MS) }
    : {
        status: r.status,
        version: r.version,
        majorVersion: r.majorVersion,
        flags: r.flags,
        allowsMonitoring: r.allowsMonitoring ?? false,
        credential: r.credential,
        error: r.error,
        checkedAt: now,
        nextCheckAt: new Date(
          now.getTime() +
            (r.status === "active"
              ? REFRESH_ACCEPTED_MS
              : r.status === "rejected"
                ? RETRY_FAILED_MS
                : RETRY_UNREACHABLE_MS),
        ),
      };
  await runtime.db.webhookCapabilities.upsert({
    where: { integrationKey: r.integrationKey },
    create: { status: r.status, flags: r.flags, ...data, integrationKey: r.integrationKey },
    update: data,
  });
  if (keepPrevious)
    runtime.logger.warn(
      { integration: r.integrationKey, error: r.error, ...traceLogFieldsOr(span) },
      "webhook integration's /about unreachable; its accepted declaration is kept",
    );
  else if (r.status !== "active")
    runtime.logger.warn(
      { integration: r.integrationKey, status: r.status, error: r.error, ...traceLogFieldsOr(span) },
      "webhook integration not accepted at /about; events wait in the queue up to their hour",
    );
  webhookEvents().emit("integration:discovered", {
    integrationKey: r.integrationKey,
    status: keepPrevious ? "active" : r.status,
    version: r.version,
    flags: r.flags,
    error: r.error,
  });
}
