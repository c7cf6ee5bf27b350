// PURE: the create-client form's fields as the create mutation's input (ZCreateClientInput validates
// it on the server). Checkboxes give every ticked value; an empty lifetime is the one-hour default.
import type { z } from "zod";
import type { ZCreateClientInput } from "@/server/identity/manage-clients";

export const DEFAULT_TOKEN_LIFETIME_S = 3600;

export function readClientForm(form: FormData): z.input<typeof ZCreateClientInput> {
  return {
    clientId: String(form.get("clientId")),
    displayName: String(form.get("displayName")),
    scopes: form.getAll("scopes").map(String),
    agencyIds: form.getAll("agencyIds").map(String),
    accessTokenLifetimeS: Number(form.get("lifetime") || DEFAULT_TOKEN_LIFETIME_S),
  };
}
