// The connector administration screen's "send a test incident": purpose Test,
// so receivers can check the connection without a real emergency.
import { performSimulatorAction } from "../perform-action.ts";
import { raiseSimulatedIncident } from "../raise-incident.ts";
import { waitForLaneSettled } from "../wait-for-deliveries.ts";
import { AGENCY } from "../../directory/seed-ids.ts";
import { NORTH_SPOT, type Scenario } from "./scenario.ts";

export const connectorTestIncident: Scenario = {
  title: "Test incident from the connector administration screen",
  description: "A Test-purpose incident for North PSAP, delivered to its receiver and closed.",
  steps: [
    {
      title: "Administrator sends a test incident",
      run: async (ctx) => {
        const incident = await raiseSimulatedIncident({
          ...ctx,
          input: { origin: "ConnectorAdmin", agencyId: AGENCY.northPsap, location: { ...NORTH_SPOT, accuracy: 10 } },
        });
        ctx.incidentIds.push(incident.id);
        return `Test incident ${incident.id}`;
      },
    },
    {
      title: "Receiver got it",
      run: (ctx) => waitForLaneSettled({ db: ctx.db, incidentId: ctx.incidentId(), integrationKey: "north-psap" }),
    },
    {
      title: "Test incident closed",
      run: async (ctx) => {
        await performSimulatorAction({ ...ctx, incidentId: ctx.incidentId(), action: { action: "close" } });
      },
    },
  ],
};
