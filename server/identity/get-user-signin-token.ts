// POST /Account/GetUserSigninToken, the domain part (platform-interface.md,
// "Sign-in token" and "GetUserSigninToken errors"): after the bearer token was
// checked, resolve the agency and the user for the calling client and issue a
// sign-in token.
import type { Clock } from "../platform/clock/clock.ts";
import { z } from "zod";
import { AppError } from "../platform/errors.ts";
import type { Runtime } from "../runtime.ts";
import { findUsersByName } from "./resolve-user-context.ts";
import { issueSigninToken } from "./signin-tokens.ts";

export const ZGetUserSigninTokenRequest = z.object({
  agencyContext: z.uuid({ error: "agencyContext must be an agency UUID." }),
  username: z.string({ error: "username is required." }).trim().min(1, { error: "username is required." }),
});
export type TGetUserSigninTokenRequest = z.infer<typeof ZGetUserSigninTokenRequest>;

type Deps = { db: Runtime["db"]; clock: Clock };

export async function getUserSigninToken(options: Deps & { clientId: string; request: TGetUserSigninTokenRequest }) {
  const deps: Deps = options;
  const { db } = deps;
  const { clientId, request } = options;
  const agencyId = request.agencyContext.toLowerCase();
  const allowed = await db.clientAgency.findUnique({ where: { clientId_agencyId: { clientId, agencyId } } });
  if (!allowed) throw new AppError("ClientNotAllowed", "The client may not issue sign-in tokens for this agency.");

  const anywhere = await findUsersByName({ db, username: request.username });
  if (anywhere.length === 0) throw new AppError("UserNotFound", "No user has this name.");
  const candidates = anywhere.filter((u) => u.agencyId === agencyId);
  const forClient = await findUsersByName({ db, username: request.username, agencyId, clientId });
  if (forClient.length > 1)
    throw new AppError("UsernameAmbiguous", "The user name matches more than one user allowed for the client.");
  const user = forClient[0];
  if (!user) {
    throw new AppError(
      "ClientNotAllowed",
      candidates.length ? "The user is not assigned to this client." : "The user does not belong to this agency.",
    );
  }
  if (!user.canSignIn) throw new AppError("ClientNotAllowed", "The user is not allowed to sign in.");
  return issueSigninToken({ ...deps, userId: user.id, clientId, agencyId });
}
