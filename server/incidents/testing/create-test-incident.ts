// A Test incident of North PSAP (the seed's) for tests that need one and say only what differs.
import { AGENCY } from "../../../prisma/seed.ts";
import type { Clock } from "../../platform/clock/clock.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { createIncident, type CreateIncidentOptions } from "../create-incident.ts";

export async function createTestIncident(
  db: DbClient,
  clock: Clock,
  overrides: Partial<Omit<CreateIncidentOptions, "db" | "clock">> = {},
) {
  const { incident } = await createIncident({
    db,
    clock,
    portalUrl: "http://wb.test",
    purpose: "Test",
    routingMode: "TokenAgency",
    createdByAgencyId: AGENCY.northPsap,
    agencyIds: [AGENCY.northPsap],
    phoneNumber: null,
    actor: "test",
    ...overrides,
  });
  return incident;
}
