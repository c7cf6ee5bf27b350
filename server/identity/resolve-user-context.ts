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
import type { DbClient } from "../platform/db/client.ts";
import { tokenError } from "./token-errors.ts";

export const USERNAME_REQUIRED_SCOPE = "username.required";

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
    throw tokenError("invalid_request", "username requires the scope username.required.");
  if (!wantsUser) return undefined;
  if (username === undefined || username.trim() === "")
    throw tokenError("invalid_request", "The scope username.required needs the username parameter.");
  if (agencyId === undefined)
    throw tokenError("invalid_request", "A user-context token needs agency_context together with username.");
  const users = await findUsersByName({ db, username, agencyId, clientId });
  if (users.length !== 1) {
    throw tokenError(
      "access_denied",
      users.length === 0
        ? "The user cannot be resolved in this agency for this client."
        : "The username matches more than one user.",
    );
  }
  const u = users[0]!;
  // "access_denied: required user context cannot be resolved or is not allowed": a user the
  // service does not allow to sign in (the seed's locked.user) cannot act through a partner either.
  if (!u.canSignIn) throw tokenError("access_denied", "The user is not allowed to act in this agency.");
  return { userId: u.id, username: u.username, name: u.name, email: u.email, role: u.role };
}

/** Users of one agency assigned to the client whose name matches case-insensitively. */
export function findUsersByName(options: { db: DbClient; username: string; agencyId?: string; clientId?: string }) {
  const { db, username, agencyId, clientId } = options;
  return db.user.findMany({
    where: {
      username: { equals: username, mode: "insensitive" },
      ...(agencyId ? { agencyId } : {}),
      ...(clientId ? { clients: { some: { clientId } } } : {}),
    },
    orderBy: { id: "asc" },
  });
}
