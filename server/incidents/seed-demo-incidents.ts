// Two Demo incidents with fixed ids (docs/seed-data.md), so docs, tests and
// scenarios can name them. Built through the aggregate's own functions, right
// after the seed's transaction.
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { createIncident } from "./create-incident.ts";
import { activateChat } from "./reach-caller.ts";

export const DEMO_INCIDENT = {
  northFall: "0b0c5b52-1c0e-4a57-9a57-200000000001",
  emsChestPain: "0b0c5b52-1c0e-4a57-9a57-200000000002",
} as const;

export async function seedDemoIncidents(options: {
  db: DbClient;
  clock: Clock;
  portalUrl: string;
  agencies: { northPsap: string; centralEms: string };
}) {
  const { db, clock, portalUrl, agencies } = options;
  const at = clock.now().toISOString();
  await createIncident({
    db,
    clock,
    portalUrl,
    id: DEMO_INCIDENT.northFall,
    purpose: "Demo",
    routingMode: "TokenAgency",
    createdByAgencyId: agencies.northPsap,
    agencyIds: [agencies.northPsap],
    phoneNumber: "+4790000100",
    enteredLocation: { latitude: 59.972, longitude: 10.761 },
    label: "Demo: fall at home",
    summary: "Woman, 82, fell in the kitchen; conscious.",
    actor: "seed",
  });
  await activateChat({ db, clock, incidentId: DEMO_INCIDENT.northFall, actor: "seed", portalUrl });
  await createIncident({
    db,
    clock,
    portalUrl,
    id: DEMO_INCIDENT.emsChestPain,
    purpose: "Demo",
    routingMode: null,
    createdByAgencyId: null,
    agencyIds: [agencies.centralEms],
    phoneNumber: "+4790000200",
    label: "Demo: chest pain",
    actor: "seed",
    tracks: [
      {
        source: "Aml",
        track: [
          {
            type: "Measured",
            accuracy: 35,
            altitude: null,
            altitudeAccuracy: null,
            latitude: 59.981,
            longitude: 10.792,
            capturedAtUtc: at,
            receivedAtUtc: at,
            source: "Aml",
          },
        ],
      },
    ],
  });
}
