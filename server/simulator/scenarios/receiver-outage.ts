// The receiver goes down during an active incident: the engine retries with
// backoff while the caller keeps moving; when the receiver is back, every event
// arrives in order (spec, Delivery). Uses the receiver fault controls.
import { setReceiverFault } from "../../reference-receiver/integration-faults.ts";
import { performSimulatorAction } from "../perform-action.ts";
import { raiseSimulatedIncident } from "../raise-incident.ts";
import { waitForFailedAttempt, waitForLaneSettled } from "../wait-for-deliveries.ts";
import { AGENCY } from "../../directory/seed-ids.ts";
import { NORTH_SPOT, type Scenario, type ScenarioContext } from "./scenario.ts";

const KEY = "north-psap";
const fault = (ctx: ScenarioContext, mode: string) =>
  setReceiverFault({ db: ctx.db, clock: ctx.clock, key: KEY, mode });
const move = (ctx: ScenarioContext, dLat: number, accuracy: number) =>
  performSimulatorAction({
    ...ctx,
    incidentId: ctx.incidentId(),
    action: {
      action: "location",
      source: "MobileApp",
      fix: { latitude: NORTH_SPOT.latitude + dLat, longitude: NORTH_SPOT.longitude, accuracy },
    },
  });

export const receiverOutage: Scenario = {
  title: "Outage during an active incident",
  description:
    "North PSAP's embedded receiver answers 503 while the caller moves; after recovery every event arrives, in order.",
  steps: [
    {
      title: "Incident raised from the app",
      run: async (ctx) => {
        const incident = await raiseSimulatedIncident({
          ...ctx,
          input: {
            origin: "MobileApp",
            agencyId: AGENCY.northPsap,
            phoneNumber: "+4795003344",
            location: { ...NORTH_SPOT, accuracy: 25 },
          },
        });
        ctx.incidentIds.push(incident.id);
        return `Real incident ${incident.id}`;
      },
    },
    {
      title: "Delivered to north-psap",
      run: (ctx) => waitForLaneSettled({ db: ctx.db, incidentId: ctx.incidentId(), integrationKey: KEY }),
    },
    {
      title: "Receiver fails (HTTP 503)",
      run: async (ctx) => {
        await fault(ctx, "http-503");
        return "fault http-503 on north-psap";
      },
    },
    {
      title: "Caller moves",
      run: async (ctx) => {
        await move(ctx, 0.0008, 15);
        await move(ctx, 0.0016, 12);
        return "two MobileApp fixes";
      },
    },
    {
      title: "Engine retries",
      run: (ctx) => waitForFailedAttempt({ db: ctx.db, incidentId: ctx.incidentId(), integrationKey: KEY }),
    },
    {
      title: "Battery drops meanwhile",
      run: async (ctx) => {
        await performSimulatorAction({
          ...ctx,
          incidentId: ctx.incidentId(),
          action: { action: "deviceInfo", batteryLevel: 9, internetConnectionType: "Cellular3G" },
        });
      },
    },
    {
      title: "Receiver recovers",
      run: async (ctx) => {
        await fault(ctx, "ok");
        return "fault cleared";
      },
    },
    {
      title: "Every event delivered, in order",
      run: (ctx) =>
        waitForLaneSettled({ db: ctx.db, incidentId: ctx.incidentId(), integrationKey: KEY, timeoutMs: 60_000 }),
    },
  ],
};
