// Tests that plan without running discovery: an accepted v3 declaration of `flags`
// for each integration, as discovery would store it (nothing is planned for an
// integration without one: its changes wait, plan-held-changes.ts).
import type { DbClient } from "../../platform/db/client.ts";
import type { V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";

/** The minimal generic shape a receiver may declare (rule 1): created + changed. */
export const MINIMAL_FLAGS: readonly V3Flag[] = ["incident.created", "incident.changed"];

export async function acceptDeclaration(
  db: DbClient,
  keys: readonly string[],
  flags: readonly V3Flag[],
  now: Date,
): Promise<void> {
  for (const key of keys) {
    const data = {
      status: "active",
      version: "3.0",
      majorVersion: 3,
      flags: [...flags],
      credential: "Publisher",
      checkedAt: now,
      nextCheckAt: new Date(now.getTime() + 3600_000),
    };
    await db.webhookCapabilities.upsert({
      where: { integrationKey: key },
      create: { integrationKey: key, ...data },
      update: data,
    });
  }
}
