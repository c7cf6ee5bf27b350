// The v3 changes whose v2 routes are neither the create, the tracks nor close
// (Versioning rule 7: POST .../psap, PATCH .../battery-level and
// .../internet-connection-type, POST .../start-video), each as a story step:
// the change and the snapshot after it, for the legacy planner to render.
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import type { SampleDeps } from "../sample-incidents.ts";
import type { StoryStep } from "./legacy-events.ts";

/** An agency the kit invites; not a seeded one, so no real integration hears of it. */
const INVITED = { id: "0b0c5b52-1c0e-4a57-9a57-0000000000c0", displayName: "Conformance Fire Service" };

type NextStep = (snapshot: TIncidentSnapshotV3, deps: SampleDeps) => StoryStep;

/** POST .../psap: another agency invited by the receiver's own. */
export const inviteAgency: NextStep = (s, d) => ({
  change: { kind: "involvedAgency.invited", agencyId: INVITED.id },
  snapshot: {
    ...s,
    involvedAgencies: [
      ...s.involvedAgencies,
      { ...INVITED, collaboration: "Pending", invitedBy: { id: d.agency.id, displayName: d.agency.displayName } },
    ],
  },
});

/** PATCH .../battery-level and PATCH .../internet-connection-type (the planner sends both for one device change). */
export const changeDeviceInfo: NextStep = (s) => ({
  change: { kind: "caller.deviceInfoChanged" },
  snapshot: {
    ...s,
    caller: {
      ...s.caller,
      deviceInfo: s.caller.deviceInfo && {
        ...s.caller.deviceInfo,
        batteryLevel: 41,
        internetConnectionType: "Cellular4G",
      },
    },
  },
});

/** POST .../start-video. */
export const activateLiveVideo: NextStep = (s, d) => ({
  change: { kind: "caller.liveVideo.activated" },
  snapshot: {
    ...s,
    caller: {
      ...s.caller,
      liveVideo: {
        state: "Active",
        activatedAtUtc: d.now().toISOString(),
        endedAtUtc: null,
        portalUrl: `${d.portalUrl}/portal/incidents/${s.id}/video`,
      },
    },
  },
});

export const otherRouteSteps: NextStep[] = [inviteAgency, changeDeviceInfo, activateLiveVideo];
