// Clients as integrators see them on the Admin page: their onboarding values
// (client_id, allowed scopes, allowed agency IDs) and, once, a new secret.
// Secrets are generated here, shown once, stored only as scrypt hashes.
import { z } from "zod";
import { AppError } from "../platform/errors.ts";
import type { Runtime } from "../runtime.ts";
import { generateClientSecret, hashClientSecret } from "./client-secret.ts";
import { SCOPE_NAMES } from "./scopes.ts";

type Deps = Pick<Runtime, "db" | "clock">;

export const ZCreateClientInput = z.object({
  clientId: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9._-]{2,62}$/, { error: "3-63 characters: lowercase letters, digits, . _ -" }),
  displayName: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(SCOPE_NAMES as [string, ...string[]])).min(1),
  agencyIds: z.array(z.uuid()).default([]),
  accessTokenLifetimeS: z.number().int().min(60).max(86_400).default(3600),
});
export type TCreateClientInput = z.infer<typeof ZCreateClientInput>;

export async function listClients(deps: Pick<Runtime, "db">) {
  const clients = await deps.db.client.findMany({
    orderBy: { id: "asc" },
    include: { agencies: { include: { agency: { select: { displayName: true } } } } },
  });
  return clients.map((c) => ({
    clientId: c.id,
    displayName: c.displayName,
    isPublic: c.secretHash === null,
    scopes: c.scopes,
    grantTypes: c.grantTypes,
    redirectUris: c.redirectUris,
    accessTokenLifetimeS: c.accessTokenLifetimeS,
    createdAt: c.createdAt,
    secretRotatedAt: c.secretRotatedAt,
    agencies: c.agencies.map((a) => ({ id: a.agencyId, displayName: a.agency.displayName })),
  }));
}

export async function createClient(
  options: Deps & { input: TCreateClientInput },
): Promise<{ clientId: string; clientSecret: string }> {
  const { input } = options;
  const deps: Deps = options;
  if (await deps.db.client.findUnique({ where: { id: input.clientId } }))
    throw new AppError("ClientExists", `A client ${input.clientId} exists already.`);
  const known = await deps.db.agency.count({ where: { id: { in: input.agencyIds } } });
  if (known !== new Set(input.agencyIds).size)
    throw new AppError("ValidationFailed", "Unknown agency id.", [{ field: "agencyIds", message: "unknown agency" }]);
  const clientSecret = generateClientSecret();
  await deps.db.client.create({
    data: {
      id: input.clientId,
      displayName: input.displayName,
      secretHash: await hashClientSecret(clientSecret),
      scopes: input.scopes,
      grantTypes: ["client_credentials"],
      redirectUris: [],
      accessTokenLifetimeS: input.accessTokenLifetimeS,
      createdAt: deps.clock.now(),
      agencies: { create: [...new Set(input.agencyIds)].map((agencyId) => ({ agencyId })) },
    },
  });
  return { clientId: input.clientId, clientSecret };
}

/** A new secret; the old one stops working at once (its hash is gone). */
export async function rotateClientSecret(
  options: Deps & { clientId: string },
): Promise<{ clientId: string; clientSecret: string }> {
  const deps: Deps = options;
  const client = await deps.db.client.findUnique({ where: { id: options.clientId } });
  if (!client) throw new AppError("ClientNotFound", `No client ${options.clientId}.`);
  if (client.secretHash === null)
    throw new AppError("PublicClient", `${options.clientId} is a public client (PKCE): it has no secret.`);
  const clientSecret = generateClientSecret();
  await deps.db.client.update({
    where: { id: client.id },
    data: { secretHash: await hashClientSecret(clientSecret), secretRotatedAt: deps.clock.now() },
  });
  return { clientId: client.id, clientSecret };
}
