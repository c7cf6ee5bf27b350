// Authentication rule 3: agency_context (or its deprecated alias psap_id) names an
// agency UUID assigned to the client; the token then carries claim agency_context.
// Error codes per the token error table: sending both, or an agency_context that is
// not a UUID, is ValidationFailed; a psap_id that is not a UUID is "PSAP ID invalid";
// an agency the client may not act for (unknown agencies included) is "PSAP not allowed".
import { z } from "zod";
import { tokenError } from "./token-errors.ts";

const Uuid = z.uuid();

export function resolveAgencyContext(options: {
  agencyContext?: string;
  psapId?: string;
  allowedAgencyIds: string[];
}): string | undefined {
  const { agencyContext, psapId, allowedAgencyIds } = options;
  if (agencyContext !== undefined && psapId !== undefined) {
    throw tokenError("ValidationFailed", "Send agency_context or its deprecated alias psap_id, not both.");
  }
  if (agencyContext === undefined && psapId === undefined) return undefined;
  const value = (agencyContext ?? psapId)!;
  if (!Uuid.safeParse(value).success) {
    throw agencyContext !== undefined
      ? tokenError("ValidationFailed", "agency_context must be an agency UUID.")
      : tokenError("PsapIdInvalid", "psap_id must be an agency UUID.");
  }
  const agencyId = value.toLowerCase();
  if (!allowedAgencyIds.includes(agencyId))
    throw tokenError("PsapNotAllowed", "The client is not allowed to act for this agency.");
  return agencyId;
}
