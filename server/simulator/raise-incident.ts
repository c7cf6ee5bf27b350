// An incident raised by a simulated caller (spec: the platform's own sources):
// purpose Real from a caller's app/web/AML/ELS, Test from the connector
// administration screen, Demo for training. The owner is the agency whose
// jurisdiction holds the first fix (as the platform routes a caller), unless given.
import { createIncident } from "../incidents/create-incident.ts";
import type { Purpose } from "../incidents/incident-state.ts";
import { resolveJurisdiction } from "../incidents/resolve-jurisdiction.ts";
import type { TLocationSource, TTrack } from "../incidents/snapshot.schema.ts";
import { AGENCY } from "../directory/seed-ids.ts";
import { measuredLocation } from "./measured-location.ts";
import type { TRaiseIncidentInput } from "./simulator.schema.ts";
import { SIMULATOR_ACTOR, type SimulatorDeps } from "./simulator-deps.ts";

const purposeOf = (origin: TRaiseIncidentInput["origin"]): Purpose =>
  origin === "ConnectorAdmin" ? "Test" : origin === "Demo" ? "Demo" : "Real";
const sourceOf = (origin: TRaiseIncidentInput["origin"]): TLocationSource =>
  origin === "ConnectorAdmin" || origin === "Demo" ? "MobileApp" : origin;

export async function raiseSimulatedIncident(options: SimulatorDeps & { input: TRaiseIncidentInput }) {
  const { input, db, clock } = options;
  const tracks: TTrack[] = [];
  if (input.location) {
    const source = sourceOf(input.origin);
    tracks.push({ source, track: [measuredLocation({ source, fix: input.location, now: clock.now() })] });
  }
  const agencyIds = input.agencyId ? [input.agencyId] : await jurisdictionOf(options);
  const label =
    input.label !== undefined
      ? input.label
      : input.origin === "ConnectorAdmin"
        ? "Test incident from the connector administration screen"
        : null;
  const { incident } = await createIncident({
    db,
    clock,
    portalUrl: options.portalUrl,
    purpose: purposeOf(input.origin),
    routingMode: null,
    createdByAgencyId: null,
    agencyIds,
    phoneNumber: input.phoneNumber ?? null,
    tracks,
    label,
    actor: SIMULATOR_ACTOR,
  });
  return incident;
}

async function jurisdictionOf(options: SimulatorDeps & { input: TRaiseIncidentInput }): Promise<string[]> {
  const fix = options.input.location;
  if (!fix) return [AGENCY.northPsap];
  const covering = await resolveJurisdiction({ db: options.db, location: fix });
  // Outside every area: North PSAP answers (the seed's default dispatch centre).
  return covering.length > 0 ? [covering[0]!.id] : [AGENCY.northPsap];
}
