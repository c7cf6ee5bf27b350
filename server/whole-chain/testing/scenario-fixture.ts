// The whole chain in one process, for the end-to-end scenarios of engine and receiver:
// a test server (identity, /v1, /receivers/{key}) with every background worker
// running (webhook planner, discovery, delivery; receiver processing), partner
// tokens from the real POST /connect/token, and waits driven by the typed events
// (webhookEvents, receiverEvents) — never by sleeping.
import { randomUUID } from "node:crypto";
import { setRuntime } from "../../runtime.ts";
import { startWorkers } from "../../workers.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { inboundClient } from "../../testing/inbound-client.ts";
import { USERNAME_REQUIRED_SCOPE } from "../../identity/scopes.ts";
import { ALL_INBOUND_SCOPES } from "../../testing/inbound-tokens.ts";
import { whenReceiverProcessingIdle } from "../../reference-receiver/process-deliveries.ts";
import { receiverEvents } from "../../reference-receiver/receiver-events.ts";
import { webhookEvents } from "../../webhooks/webhook-events.ts";
import { AGENCY } from "../../../prisma/seed.ts";
import { readIncident } from "../../incidents/read-incident.ts";
import { readReplica } from "../../reference-receiver/list-receivers.ts";
import { unprocessedRecordCount } from "../../reference-receiver/receiver-progress.ts";

export { AGENCY };

export type Scenario = Awaited<ReturnType<typeof startScenario>>;

/** `env`: extra environment of the test server (e.g. OTEL_* for the tracing scenario). */
export async function startScenario(options: { env?: Record<string, string> } = {}) {
  const server: TestServer = await startTestServer({ env: options.env });
  setRuntime(server.runtime);
  const { runtime } = server;
  // Discovery starts with the workers: wait until both v3 embedded receivers are accepted.
  const discovered = waitUntil(async () => {
    const caps = await runtime.db.webhookCapabilities.findMany({
      where: { integrationKey: { in: ["north-psap", "central-ems"] }, status: "active" },
    });
    return caps.length === 2;
  });
  const workers = await startWorkers(runtime);
  await discovered;
  const call = inboundClient(server.url);

  /** A user-context token from the real token endpoint (spec, Typical flow: agency_context + username.required + username). */
  async function requestToken(options: { agencyId?: string; username?: string } = {}): Promise<string> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: "partner-cad",
      client_secret: "partner-cad-secret",
      scope: [...ALL_INBOUND_SCOPES, USERNAME_REQUIRED_SCOPE].join(" "),
      agency_context: options.agencyId ?? AGENCY.northPsap,
      username: options.username ?? "dispatcher.north",
    });
    const res = await fetch(`${server.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    const body = (await res.json()) as { access_token?: string; error?: string };
    if (res.status !== 200 || !body.access_token)
      throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
    return body.access_token;
  }

  /** POST /v1/incidents (TokenAgency) and returns its id. */
  async function createIncident(token: string, body: Record<string, unknown> = {}): Promise<string> {
    const a = await call("POST", "/v1/incidents", {
      token,
      body: {
        routingMode: "TokenAgency",
        requestedIncidentId: randomUUID(),
        caller: { phoneNumber: "+4795512345" },
        ...body,
      },
    });
    if (a.status !== 201) throw new Error(`create failed: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body.incidentId as string;
  }

  /** Calls /v1 and fails loudly on an unexpected status (a scenario step that must succeed). */
  async function step(token: string, method: string, path: string, body?: unknown, expected = [200, 201, 202]) {
    const a = await call(method, path, { token, body });
    if (!expected.includes(a.status))
      throw new Error(`${method} ${path} answered ${a.status} ${JSON.stringify(a.body)}`);
    return a;
  }

  /** Resolves once every delivery of the incident (to `integrationKey`, or all) is finished and the receiver applied what it accepted. */
  function settled(incidentIds: string | string[], integrationKey?: string) {
    const incidentId = { in: [incidentIds].flat() };
    return waitUntil(async () => {
      const open = await runtime.db.webhookDelivery.count({
        where: { incidentId, integrationKey, state: { in: ["pending", "delivering"] } },
      });
      if (open > 0) return false;
      return (await unprocessedRecordCount(runtime.db, { integrationKey, incidentIds: incidentId.in })) === 0;
    });
  }

  /** What a receiver recorded for an incident, oldest first. */
  const records = (integrationKey: string, incidentId: string) =>
    runtime.db.receiverRecord.findMany({ where: { integrationKey, incidentId }, orderBy: { id: "asc" } });

  /** The engine's deliveries of an incident to one integration, lane order, with their attempts. */
  const deliveries = (integrationKey: string, incidentId: string) =>
    runtime.db.webhookDelivery.findMany({
      where: { integrationKey, incidentId },
      orderBy: { id: "asc" },
      include: { attempts: { orderBy: { attempt: "asc" } } },
    });

  async function replicaAndPlatform(integrationKey: string, incidentId: string) {
    const row = await readReplica({ db: runtime.db, key: integrationKey, incidentId });
    const platform = (await readIncident({ db: runtime.db, incidentId }))!;
    const replica = row ? { ...row, snapshot: row.snapshot } : null;
    return { replica, platform: platform.snapshot };
  }

  return {
    server,
    runtime,
    call,
    requestToken,
    createIncident,
    step,
    settled,
    records,
    deliveries,
    replicaAndPlatform,
    async close() {
      await workers.stop();
      await whenReceiverProcessingIdle();
      setRuntime(undefined);
      await server.close();
    },
  };
}

/**
 * Resolves when `check` holds, re-checked on every engine and receiver event
 * (and once at the start); rejects after `timeoutMs`. Not a poll: without an
 * event nothing can have changed.
 */
export function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const engine = webhookEvents();
  return new Promise<void>((resolve, reject) => {
    let done = false;
    let running = false;
    let again = false;
    const names = [
      "delivery:planned",
      "delivery:attempted",
      "delivery:delivered",
      "delivery:expired",
      "integration:discovered",
    ] as const;
    const cleanup = () => {
      done = true;
      clearTimeout(timer);
      for (const n of names) engine.off(n, onEvent);
      receiverEvents.off("receiver:processed", onEvent);
      receiverEvents.off("receiver:recorded", onEvent);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for: ${check.toString().slice(0, 300)}`));
    }, timeoutMs);
    async function run() {
      if (done) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          if (await check()) {
            cleanup();
            resolve();
            return;
          }
        } while (again && !done);
      } catch (err) {
        cleanup();
        reject(err);
      } finally {
        running = false;
      }
    }
    const onEvent = () => void run();
    for (const n of names) engine.on(n, onEvent);
    receiverEvents.on("receiver:processed", onEvent);
    receiverEvents.on("receiver:recorded", onEvent);
    void run();
  });
}
