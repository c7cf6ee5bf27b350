// What the benches do as the partner system: a Bearer token for north-psap's dispatcher (minted
// straight from the workbench's signing keys, as its token endpoint would, on the workbench clock
// given), and incidents created through POST /v1/incidents.
import { AGENCY, USER } from "../../prisma/seed.ts";
import { mintAccessToken } from "../../server/identity/access-token.ts";
import type { WorkbenchClock } from "../../server/platform/clock/clock.ts";
import type { DbClient } from "../../server/platform/db/client.ts";
import { SigningKeyStore } from "../../server/platform/signing-keys.ts";

/** The request headers of a partner call: a one-hour token valid on `clock` as it is now. */
export async function partnerHeaders(db: DbClient, clock: WorkbenchClock, origin: string) {
  const { accessToken } = await mintAccessToken({
    keys: new SigningKeyStore({ db, clock }),
    clock,
    issuer: origin,
    subject: USER.dispatcherNorth,
    audience: `${origin}/v1`,
    clientId: "partner-cad",
    scope: ["incident.create", "incident.caller.track", "username.required"],
    lifetimeS: 3600,
    claims: {
      agency_context: AGENCY.northPsap,
      username: "dispatcher.north",
      name: "Nora North",
      role: "Dispatcher",
    },
  });
  return { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
}

/** Creates `count` incidents one after another; `phoneNumber(i)` is the i-th caller's number. */
export async function createIncidents(
  origin: string,
  headers: Record<string, string>,
  count: number,
  phoneNumber: (i: number) => string,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${origin}/v1/incidents`, {
      method: "POST",
      headers,
      body: JSON.stringify({ routingMode: "TokenAgency", caller: { phoneNumber: phoneNumber(i) } }),
    });
    if (res.status !== 201) throw new Error(`create incident: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { incidentId: string }).incidentId);
  }
  return ids;
}
