// Reading and changing an embedded receiver's /about declaration.
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { AppError } from "../platform/errors.ts";
import {
  defaultDeclaration,
  normalizeFlag,
  withFlag,
  type CapabilityDeclaration,
  type SupportsTree,
} from "./capabilities.ts";
import { webhookEvents } from "../webhooks/webhook-events.ts";

/** An embedded receiver is an integration whose receiver URL is the workbench's own /receivers/{key}. */
export async function findEmbeddedReceiver(options: { db: DbClient; key: string }) {
  const integration = await options.db.integration.findUnique({ where: { key: options.key } });
  if (!integration || integration.receiverUrl !== `/receivers/${integration.key}`) return null;
  return integration;
}

export async function requireEmbeddedReceiver(options: { db: DbClient; key: string }) {
  const integration = await findEmbeddedReceiver(options);
  if (!integration)
    throw new AppError(
      "ReceiverNotFound",
      `No embedded receiver "${options.key}": its integration must deliver to /receivers/${options.key}.`,
    );
  return integration;
}

export async function readCapabilities(options: { db: DbClient; key: string }): Promise<CapabilityDeclaration> {
  const row = await options.db.receiverCapabilities.findUnique({ where: { integrationKey: options.key } });
  return row ? (row.declaration as CapabilityDeclaration) : defaultDeclaration();
}

export type CapabilityChange = {
  /** Flags to set, by dotted path ("incident.labelChanged" or "labelChanged"). */
  set?: Record<string, boolean>;
  version?: string;
  allowsMonitoring?: boolean;
};

/** Applies the change, stores it and emits integration:about-changed (the engine rediscovers it). */
export async function setReceiverCapabilities(
  options: { db: DbClient; clock: Clock; key: string } & CapabilityChange,
): Promise<CapabilityDeclaration> {
  const { db, clock, key } = options;
  await requireEmbeddedReceiver({ db, key });
  const current = await readCapabilities({ db, key });
  let incident: SupportsTree = current.supports.incident ?? {};
  for (const [path, value] of Object.entries(options.set ?? {})) {
    const flag = normalizeFlag(path);
    if (!flag)
      throw new AppError("ValidationFailed", `"${path}" is not a v3 capability flag.`, [
        { field: "set", message: `unknown flag ${path}` },
      ]);
    incident = withFlag(incident, flag, value);
  }
  const version = options.version ?? current.version;
  // 1.x/2.x make the receiver speak the legacy contract at /about (its v3 routes stay: the cutover, Versioning rule 3).
  if (!/^[123]\.\d+$/.test(version))
    throw new AppError(
      "ValidationFailed",
      `The reference receiver implements v1, v2 and v3: the version must be 1.x, 2.x or 3.x, not "${version}".`,
      [{ field: "version", message: "must be 1.x, 2.x or 3.x" }],
    );
  const declaration: CapabilityDeclaration = {
    version,
    supports: { ...current.supports, incident },
    allowsMonitoring: options.allowsMonitoring ?? current.allowsMonitoring,
  };
  await db.receiverCapabilities.upsert({
    where: { integrationKey: key },
    create: { integrationKey: key, declaration, updatedAt: clock.now() },
    update: { declaration, updatedAt: clock.now() },
  });
  // Spec, "Versioning" 3 (the service reads /about to choose what it sends): a toggle must be in force
  // for the very next event, so wait for the engine's rediscovery rather than letting it race the next
  // change (a scenario test caught a label PATCH right after labelChanged=false still going to PATCH label).
  const work: Promise<unknown>[] = [];
  webhookEvents().emit("integration:about-changed", { integrationKey: key, waitFor: (p) => work.push(p) });
  await Promise.allSettled(work);
  return declaration;
}
