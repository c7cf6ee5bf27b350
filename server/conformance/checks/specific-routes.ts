// The specific event routes (everything but create, closed, changed and the
// track routes), with a valid body each (workbench-decisions.md, "Webhook v3
// bodies"). Listed in an order a real incident could produce them; method, path
// and flag are the contract's route table's (webhook-contracts/v3/routes.ts).
import { declares, type TAbout } from "../about.schema.ts";
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { flagPathOf, type V3Flag, type V3FlagPath } from "../../webhook-contracts/v3/capability-flags.ts";
import { routePath, V3_ROUTES } from "../../webhook-contracts/v3/routes.ts";
import type { SampleDeps } from "../sample-incidents.ts";
import { fullCaller } from "../sample-incidents.ts";
import type { EventStep } from "./deliver-events.ts";

type SpecificRoute = {
  route: V3Flag;
  /** A valid body for the route; `agencyId`: the agency a collaboration change is about. */
  step: (incident: TIncidentSnapshotV3, deps: SampleDeps) => { body?: unknown; agencyId?: string };
};

const CONFORMANCE_AGENCY = "0b0c5b52-1c0e-4a57-9a57-0000000000c0";

const portal = (deps: SampleDeps, incident: TIncidentSnapshotV3, what: string) =>
  `${deps.portalUrl}/portal/incidents/${incident.id}/${what}`;

const SPECIFIC_ROUTES: SpecificRoute[] = [
  {
    route: "caller.changed",
    step: (i, d) => ({ body: { ...fullCaller(d, i.caller.tracks), email: null } }),
  },
  {
    route: "caller.fullNameChanged",
    step: () => ({ body: { fullName: "Kari Marie Nordmann" } }),
  },
  {
    route: "caller.phoneNumberChanged",
    step: () => ({ body: { phoneNumber: "+4799900002" } }),
  },
  {
    route: "caller.deviceInfoChanged",
    step: (i) => ({
      body: { deviceInfo: i.caller.deviceInfo && { ...i.caller.deviceInfo, batteryLevel: 41 } },
    }),
  },
  {
    route: "caller.chat.activated",
    step: (i, d) => ({
      body: { chat: { state: "Active", activatedAtUtc: d.now().toISOString(), portalUrl: portal(d, i, "chat") } },
    }),
  },
  {
    route: "caller.liveVideo.activated",
    step: (i, d) => ({
      body: {
        liveVideo: {
          state: "Active",
          activatedAtUtc: d.now().toISOString(),
          endedAtUtc: null,
          portalUrl: portal(d, i, "video"),
        },
      },
    }),
  },
  { route: "caller.liveVideo.ended", step: () => ({}) },
  {
    route: "involvedAgency.invited",
    step: (_i, d) => ({
      body: {
        agency: {
          id: CONFORMANCE_AGENCY,
          displayName: "Conformance Fire Service",
          collaboration: "Pending",
          invitedBy: { id: d.agency.id, displayName: d.agency.displayName },
        },
      },
    }),
  },
  {
    route: "involvedAgency.collaboration.changed",
    step: () => ({ agencyId: CONFORMANCE_AGENCY, body: { collaboration: "Accepted" } }),
  },
  { route: "labelChanged", step: () => ({ body: { label: null } }) },
  {
    route: "summaryChanged",
    step: () => ({ body: { summary: "Caller found, ambulance on scene." } }),
  },
  { route: "callSignChanged", step: () => ({ body: { callSign: "CONF-2" } }) },
  {
    route: "patient.descriptionChanged",
    step: () => ({ body: { description: null } }),
  },
];

const SUPERSEDED_BY_CALLER_CHANGED = new Set<V3Flag>([
  "caller.fullNameChanged",
  "caller.phoneNumberChanged",
  "caller.deviceInfoChanged",
]);

const flagOf = (route: V3Flag): V3FlagPath => flagPathOf(route);

/** The specific routes this receiver will be called on (rule 3: caller.changed supersedes the three caller PATCH routes). */
export function declaredSpecificSteps(
  about: TAbout,
  incident: TIncidentSnapshotV3,
  deps: SampleDeps,
): { flags: string[]; steps: EventStep[] } {
  const composed = declares(about, "caller.changed");
  const routes = SPECIFIC_ROUTES.filter(
    (r) => declares(about, flagOf(r.route)) && !(composed && SUPERSEDED_BY_CALLER_CHANGED.has(r.route)),
  );
  return {
    flags: routes.map((r) => flagOf(r.route)),
    steps: routes.map((r) => {
      const { agencyId, ...step } = r.step(incident, deps);
      return { ...step, method: V3_ROUTES[r.route].method, path: routePath(r.route, incident.id, agencyId) };
    }),
  };
}
