// The seeded (and later, administered) directory: agencies, clients, users,
// integrations, as the dashboard's overview lists them. Never returns secrets.
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { describeListener } from "./describe-listener.ts";

export async function listDirectory(options: { db: DbClient; clock: Clock }) {
  const { db, clock } = options;
  const [agencies, clients, users, integrations, capabilities] = await Promise.all([
    db.agency.findMany({ orderBy: { id: "asc" }, include: { relatedTo: { select: { toId: true } } } }),
    db.client.findMany({ orderBy: { id: "asc" }, include: { agencies: { select: { agencyId: true } } } }),
    db.user.findMany({
      orderBy: [{ agencyId: "asc" }, { username: "asc" }],
      include: { clients: { select: { clientId: true } } },
    }),
    db.integration.findMany({ orderBy: { key: "asc" }, include: { listener: true } }),
    db.webhookCapabilities.findMany({ select: { integrationKey: true, status: true, version: true } }),
  ]);
  // The contract an integration gets is the version its /about declares (Versioning rule 3): there is no configured one.
  const declared = new Map(capabilities.map((c) => [c.integrationKey, c]));
  return {
    agencies: agencies.map((a) => ({
      id: a.id,
      displayName: a.displayName,
      type: a.type,
      relatedAgencyIds: a.relatedTo.map((r) => r.toId),
    })),
    clients: clients.map((c) => ({
      clientId: c.id,
      displayName: c.displayName,
      isPublic: c.secretHash === null,
      scopes: c.scopes,
      grantTypes: c.grantTypes,
      agencyIds: c.agencies.map((a) => a.agencyId),
      accessTokenLifetimeS: c.accessTokenLifetimeS,
    })),
    users: users.map((u) => ({
      id: u.id,
      username: u.username,
      name: u.name,
      email: u.email,
      role: u.role,
      agencyId: u.agencyId,
      canSignIn: u.canSignIn,
      clientIds: u.clients.map((c) => c.clientId),
    })),
    integrations: integrations.map((i) => ({
      key: i.key,
      agencyId: i.agencyId,
      receiverUrl: i.receiverUrl,
      insecureDev: i.insecureDev,
      declaredVersion: declared.get(i.key)?.version ?? null,
      discoveryStatus: declared.get(i.key)?.status ?? null,
      /** A `workbench listen` attached: the integration's traffic goes through it, not to receiverUrl. */
      listener: describeListener(i.listener, clock),
    })),
  };
}
