// Collaboration between agencies (spec state table): North PSAP invites
// Central EMS, who accepts, and Fire and Rescue, who declines.
import { inviteAgency, resolveInvitation } from "../../incidents/collaboration.ts";
import { raiseSimulatedIncident } from "../raise-incident.ts";
import { SIMULATOR_ACTOR } from "../simulator-deps.ts";
import { AGENCY } from "../../directory/seed-ids.ts";
import { NORTH_SPOT, type Scenario, type ScenarioContext } from "./scenario.ts";

const op = (ctx: ScenarioContext) => ({
  db: ctx.db,
  clock: ctx.clock,
  incidentId: ctx.incidentId(),
  actor: SIMULATOR_ACTOR,
});

export const agencyCollaboration: Scenario = {
  title: "Collaboration between agencies",
  description: "North PSAP owns an incident, invites Central EMS (accepts) and Fire and Rescue (declines).",
  steps: [
    {
      title: "Incident raised at North PSAP",
      run: async (ctx) => {
        const incident = await raiseSimulatedIncident({
          ...ctx,
          input: {
            origin: "WebApp",
            agencyId: AGENCY.northPsap,
            phoneNumber: "+4795005566",
            location: { ...NORTH_SPOT, accuracy: 40 },
            label: "Traffic accident, two cars",
          },
        });
        ctx.incidentIds.push(incident.id);
        return `Real incident ${incident.id}`;
      },
    },
    {
      title: "Central EMS invited",
      run: async (ctx) => {
        await inviteAgency({ ...op(ctx), access: { agencyId: AGENCY.northPsap }, invitedAgencyId: AGENCY.centralEms });
        return "Pending";
      },
    },
    {
      title: "Central EMS accepts",
      run: async (ctx) => {
        await resolveInvitation({ ...op(ctx), access: { agencyId: AGENCY.centralEms }, decision: "Accepted" });
        return "Accepted";
      },
    },
    {
      title: "Fire and Rescue invited",
      run: async (ctx) => {
        await inviteAgency({ ...op(ctx), access: { agencyId: AGENCY.northPsap }, invitedAgencyId: AGENCY.fireRescue });
        return "Pending";
      },
    },
    {
      title: "Fire and Rescue declines",
      run: async (ctx) => {
        await resolveInvitation({ ...op(ctx), access: { agencyId: AGENCY.fireRescue }, decision: "Declined" });
        return "Declined";
      },
    },
  ],
};
