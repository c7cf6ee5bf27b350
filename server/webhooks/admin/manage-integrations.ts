// Integrations as the CLI and dashboard manage them: list with discovered
// capabilities, point one at any receiver (an integrator's own), rediscover.
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../platform/runtime.ts";
import { discoverIntegration, type DiscoveryResult } from "../discovery/discover-integration.ts";
import { resolveReceiverUrl } from "../receiver-url.ts";

export const ZSetIntegrationInput = z.object({
  key: z.string().min(1),
  /** An absolute http(s) URL, or a path on this workbench (e.g. /receivers/north-psap). */
  url: z.string().refine((u) => u.startsWith("/") || /^https?:\/\/[^/]+/.test(u), "must be an http(s) URL or a path starting with /").transform((u) => u.replace(/\/+$/, "")),
  insecureDev: z.boolean().default(false),
});

export async function listIntegrations(options: { runtime: Runtime }) {
  const { db, env } = options.runtime;
  const [integrations, caps] = await Promise.all([
    db.integration.findMany({ orderBy: { key: "asc" }, include: { agency: { select: { displayName: true } } } }),
    db.webhookCapabilities.findMany(),
  ]);
  return integrations.map((i) => {
    const c = caps.find((x) => x.integrationKey === i.key);
    return {
      key: i.key, agencyId: i.agencyId, agency: i.agency.displayName, receiverUrl: i.receiverUrl,
      resolvedUrl: resolveReceiverUrl(i.receiverUrl, env.PUBLIC_URL), insecureDev: i.insecureDev,
      discovery: c ? { status: c.status, version: c.version, majorVersion: c.majorVersion, flags: c.flags, allowsMonitoring: c.allowsMonitoring, credential: c.credential, error: c.error, checkedAt: c.checkedAt.toISOString(), nextCheckAt: c.nextCheckAt.toISOString() } : null,
    };
  });
}

async function requireIntegration(runtime: Runtime, key: string) {
  const found = await runtime.db.integration.findUnique({ where: { key } });
  if (!found) throw new AppError("IntegrationNotFound", 404, `No integration "${key}".`);
  return found;
}

/** Points an integration at a receiver, then rediscovers it at once. */
export async function setIntegration(options: { runtime: Runtime; input: z.input<typeof ZSetIntegrationInput> }): Promise<DiscoveryResult> {
  const input = ZSetIntegrationInput.parse(options.input);
  await requireIntegration(options.runtime, input.key);
  await options.runtime.db.integration.update({ where: { key: input.key }, data: { receiverUrl: input.url, insecureDev: input.insecureDev } });
  return discoverIntegration(options.runtime, input.key);
}

export async function rediscoverIntegration(options: { runtime: Runtime; key: string }): Promise<DiscoveryResult> {
  await requireIntegration(options.runtime, options.key);
  return discoverIntegration(options.runtime, options.key);
}
