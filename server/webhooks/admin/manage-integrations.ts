// Integrations as the CLI and dashboard manage them: list with discovered
// capabilities, point one at any receiver (an integrator's own), rediscover.
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { discoverIntegration, type DiscoveryResult } from "../discovery/discover-integration.ts";
import { resolveReceiverUrl } from "../sending/receiver-url.ts";
import { describeListener } from "../../directory/describe-listener.ts";
import { validateReceiverUrl } from "../sending/validate-receiver-url.ts";

export const ZSetIntegrationInput = z.object({
  key: z.string().min(1),
  /**
   * An absolute http(s) URL the outbound policy allows, or this integration's embedded receiver:
   * its path (/receivers/north-psap) or that path's absolute URL on this workbench's origin.
   * Checked by validateReceiverUrl (one-line refusals), not here.
   */
  url: z.string().min(1).max(2_000),
  insecureDev: z.boolean().default(false),
});

export async function listIntegrations(options: { runtime: Runtime }) {
  const { db, env, clock } = options.runtime;
  const [integrations, caps] = await Promise.all([
    db.integration.findMany({
      orderBy: { key: "asc" },
      include: { agency: { select: { displayName: true } }, listener: true },
    }),
    db.webhookCapabilities.findMany(),
  ]);
  return integrations.map((i) => {
    const c = caps.find((x) => x.integrationKey === i.key);
    return {
      key: i.key,
      agencyId: i.agencyId,
      agency: i.agency.displayName,
      receiverUrl: i.receiverUrl,
      resolvedUrl: resolveReceiverUrl(i.receiverUrl, env.PUBLIC_URL),
      insecureDev: i.insecureDev,
      /** A `workbench listen` attached (docs/listen.md): its traffic goes there, not to the URL above. */
      listener: describeListener(i.listener, clock),
      discovery: c
        ? {
            status: c.status,
            version: c.version,
            majorVersion: c.majorVersion,
            flags: c.flags,
            allowsMonitoring: c.allowsMonitoring,
            credential: c.credential,
            error: c.error,
            checkedAt: c.checkedAt.toISOString(),
            nextCheckAt: c.nextCheckAt.toISOString(),
          }
        : null,
    };
  });
}

async function requireIntegration(runtime: Runtime, key: string) {
  const found = await runtime.db.integration.findUnique({ where: { key } });
  if (!found) throw new AppError("IntegrationNotFound", `No integration "${key}".`);
  return found;
}

/** Points an integration at a receiver, then rediscovers it at once. */
export async function setIntegration(options: {
  runtime: Runtime;
  input: z.input<typeof ZSetIntegrationInput>;
}): Promise<DiscoveryResult> {
  const input = ZSetIntegrationInput.parse(options.input);
  const { env } = options.runtime;
  await requireIntegration(options.runtime, input.key);
  const target = await validateReceiverUrl({
    input: input.url,
    insecureDev: input.insecureDev,
    env,
    field: "url",
    embeddedKey: input.key,
  });
  // An embedded receiver is stored as its path (what marks it embedded: its /about, its
  // deliveries on PUBLIC_URL), insecure-dev when PUBLIC_URL itself is plain http, as seeded.
  const data =
    target.kind === "embedded"
      ? { receiverUrl: target.path, insecureDev: input.insecureDev || env.PUBLIC_URL.startsWith("http:") }
      : { receiverUrl: target.url, insecureDev: input.insecureDev };
  await moveIntegration(options.runtime, input.key, data);
  return discoverIntegration(options.runtime, input.key);
}

/**
 * Stores the integration's receiver. A URL never discovered has no declaration (decision 0023): when
 * the URL changes, the old receiver's accepted declaration goes in the same transaction, so the new
 * receiver's changes are held until it declares, as for a new integration, and its lanes start anew
 * (each incident's next change reaches it as the create-and-track sequence of the current snapshot).
 * Deleting the declaration moves the planning version, so no process plans from what it remembered.
 *
 * The events already queued were planned for the old receiver — its routes, appends to tracks the new
 * one never got — so none of them is sent to the new one (decision 0062): the outbox's last id is
 * kept as the integration's `movedAfterDeliveryId`, and once the new declaration is accepted they
 * are superseded as a cutover's are, each incident that had any sent anew as the create-and-track
 * sequence of its current snapshot (planning/supersede-queued-events.ts). Read last, from the
 * sequence (every id handed out, committed or not): only a planning statement already under way as
 * this commits can still take a later id under the old declaration, a window of its milliseconds.
 */
async function moveIntegration(runtime: Runtime, key: string, data: { receiverUrl: string; insecureDev: boolean }) {
  await runtime.db.$transaction(async (tx) => {
    const before = await tx.integration.findUniqueOrThrow({ where: { key }, select: { receiverUrl: true } });
    if (before.receiverUrl === data.receiverUrl) {
      await tx.integration.update({ where: { key }, data });
      return;
    }
    await tx.webhookCapabilities.deleteMany({ where: { integrationKey: key } });
    await tx.webhookLane.updateMany({
      where: { integrationKey: key },
      data: { introduced: false, fullTracks: [], updatedAt: runtime.clock.now() },
    });
    const [last] = await tx.$queryRaw<Array<{ id: bigint }>>`
      SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS id FROM "WebhookDelivery_id_seq"`;
    await tx.integration.update({ where: { key }, data: { ...data, movedAfterDeliveryId: last?.id ?? 0n } });
  });
}

export async function rediscoverIntegration(options: { runtime: Runtime; key: string }): Promise<DiscoveryResult> {
  await requireIntegration(options.runtime, options.key);
  return discoverIntegration(options.runtime, options.key);
}

/**
 * Detaches an integration's listener from the dashboard (one that never came back keeps its
 * integration routed: decision 0052): the integration goes back to its receiver URL and is
 * rediscovered there; a listener still connected is closed by its holder within seconds.
 */
export async function detachIntegrationListener(options: { runtime: Runtime; key: string }) {
  await requireIntegration(options.runtime, options.key);
  const { count } = await options.runtime.db.integrationListener.deleteMany({ where: { integrationKey: options.key } });
  if (count > 0) await discoverIntegration(options.runtime, options.key);
  return { detached: count > 0 };
}
