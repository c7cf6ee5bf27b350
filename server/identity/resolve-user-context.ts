// Authentication rule 4 (user context): the client is assigned username.required;
// the request's scope includes it plus business scopes; the request has both
// agency_context and username; the user exists in that agency (and is assigned to
// the client) and is allowed (canSignIn). Username without username.required is
// invalid_request; a user who cannot be resolved or is not allowed is access_denied.
//
// User names match case-insensitively, as on the portal login screen; a name that
// matches several users of the agency (the seed's j.smith / J.Smith) cannot be
// resolved to one user, so it is access_denied too (the sign-in API calls the same
// case UsernameAmbiguous).
import { Prisma, type DbClient } from "../platform/db/client.ts";
import type { User } from "../platform/db/generated/client.ts";
import { sqlQuery } from "../platform/db/sql-transaction.ts";
import { USERNAME_REQUIRED_SCOPE } from "./scopes.ts";
import { tokenError } from "./token-errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UserContext = { userId: string; username: string; name: string; email: string | null; role: string | null };

export async function resolveUserContext(options: {
  db: DbClient;
  clientId: string;
  scopes: string[];
  username?: string;
  agencyId?: string;
}): Promise<UserContext | undefined> {
  const { db, clientId, scopes, username, agencyId } = options;
  const wantsUser = scopes.includes(USERNAME_REQUIRED_SCOPE);
  if (username !== undefined && !wantsUser)
    throw tokenError("InvalidRequest", "username requires the scope username.required.");
  if (!wantsUser) return undefined;
  if (username === undefined || username.trim() === "")
    throw tokenError("InvalidRequest", "The scope username.required needs the username parameter.");
  if (agencyId === undefined)
    throw tokenError("InvalidRequest", "A user-context token needs agency_context together with username.");
  const users = await findUsersByName({ db, username, agencyId, clientId });
  if (users.length !== 1) {
    throw tokenError(
      "AccessDenied",
      users.length === 0
        ? "The user cannot be resolved in this agency for this client."
        : "The username matches more than one user.",
    );
  }
  const u = users[0]!;
  // "access_denied: required user context cannot be resolved or is not allowed": a user the
  // service does not allow to sign in (the seed's locked.user) cannot act through a partner either.
  if (!u.canSignIn) throw tokenError("AccessDenied", "The user is not allowed to act in this agency.");
  return { userId: u.id, username: u.username, name: u.name, email: u.email, role: u.role };
}

/**
 * Users of one agency assigned to the client whose name matches case-insensitively (lower() on both
 * sides: an exact match, `%` and `_` are plain characters). One statement on the pg pool, not
 * Prisma: a user-context token's only query, which through Prisma's query compiler cost ~2 ms of
 * Node CPU a token (bench/token-endpoint.bench.ts).
 */
export function findUsersByName(options: {
  db: DbClient;
  username: string;
  agencyId?: string;
  clientId?: string;
}): Promise<User[]> {
  const { db, username, agencyId, clientId } = options;
  // An agency id that is not a UUID names no agency (and must not fail the cast below).
  if (agencyId !== undefined && !UUID.test(agencyId)) return Promise.resolve([]);
  return sqlQuery<User>(
    db,
    Prisma.sql`
    SELECT u.id::text AS id, u.username, u.name, u.email, u.role, u."agencyId"::text AS "agencyId", u."canSignIn", u."createdAt"
    FROM "User" u
    WHERE lower(u.username) = lower(${username})
      ${agencyId ? Prisma.sql`AND u."agencyId" = ${agencyId}::uuid` : Prisma.empty}
      ${clientId ? Prisma.sql`AND EXISTS (SELECT 1 FROM "UserClient" uc WHERE uc."userId" = u.id AND uc."clientId" = ${clientId})` : Prisma.empty}
    ORDER BY u.id`,
  );
}
