// A caller reports a cardiac arrest: the handset's AML fix arrives first
// (coarse), then the emergency app links and sends a precise location.
import { performSimulatorAction } from "../perform-action.ts";
import { raiseSimulatedIncident } from "../raise-incident.ts";
import { NORTH_SPOT, type Scenario } from "./scenario.ts";

export const cardiacArrest: Scenario = {
  title: "Cardiac arrest: AML, then app location",
  description:
    "A Real incident raised from an AML fix (±60 m); the app links, sends a ±6 m fix, the reported problems (unconscious, not breathing), name, medical data and battery, and the caller chats.",
  steps: [
    {
      title: "Caller dials; AML fix arrives",
      run: async (ctx) => {
        const incident = await raiseSimulatedIncident({
          ...ctx,
          input: {
            origin: "Aml",
            phoneNumber: "+4795001122",
            location: { ...NORTH_SPOT, accuracy: 60, capturedSecondsAgo: 4 },
          },
        });
        ctx.incidentIds.push(incident.id);
        return `Real incident ${incident.id} owned by ${incident.snapshot.involvedAgencies[0]?.displayName}`;
      },
    },
    {
      title: "Emergency app linked",
      run: async (ctx) => {
        await act(ctx, { action: "linkDataSource", source: "mobileApp" });
      },
    },
    {
      title: "App sends a precise location",
      run: async (ctx) => {
        await act(ctx, {
          action: "location",
          source: "MobileApp",
          fix: {
            latitude: NORTH_SPOT.latitude + 0.0004,
            longitude: NORTH_SPOT.longitude - 0.0003,
            accuracy: 6,
            altitude: 42,
            altitudeAccuracy: 3,
          },
        });
        return "MobileApp ±6 m";
      },
    },
    {
      // What the caller said on the phone, recorded as the snapshot's problems, so the portal's
      // header and every receiver know it too, not only whoever reads the chat.
      title: "Caller reports: unconscious, not breathing",
      run: async (ctx) => {
        await act(ctx, { action: "reportProblems", problems: ["unconscious", "notBreathing"] });
      },
    },
    {
      title: "Caller's name known",
      run: async (ctx) => {
        await act(ctx, { action: "fullName", fullName: "Ola Nordmann" });
      },
    },
    {
      title: "Medical data shared",
      run: async (ctx) => {
        await act(ctx, { action: "medicData" });
        return "heart condition, penicillin allergy";
      },
    },
    {
      title: "Battery low",
      run: async (ctx) => {
        await act(ctx, { action: "deviceInfo", batteryLevel: 14, internetConnectionType: "Cellular4G" });
        return "14 %";
      },
    },
    {
      title: "Chat activated",
      run: async (ctx) => {
        await act(ctx, { action: "activateChat" });
      },
    },
    {
      title: "Caller writes",
      run: async (ctx) => {
        await act(ctx, { action: "chatMessage", text: "He collapsed and is not breathing. I started CPR." });
      },
    },
  ],
};

const act = (
  ctx: Parameters<Scenario["steps"][number]["run"]>[0],
  action: Parameters<typeof performSimulatorAction>[0]["action"],
) => performSimulatorAction({ ...ctx, incidentId: ctx.incidentId(), action });
