// The specific event routes (everything but create, closed, changed and the
// track routes), with a valid body each (workbench-decisions.md, "Webhook v3
// bodies"). Listed in an order a real incident could produce them.
import { declares, type TAbout } from "../about.schema.ts";
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import type { SampleDeps } from "../sample-incidents.ts";
import { fullCaller } from "../sample-incidents.ts";
import type { EventStep } from "./deliver-events.ts";

type SpecificRoute = {
  flag: string;
  step: (incident: TIncidentSnapshotV3, deps: SampleDeps) => Omit<EventStep, "path"> & { sub: string };
};

const portal = (deps: SampleDeps, incident: TIncidentSnapshotV3, what: string) =>
  `${deps.portalUrl}/portal/incidents/${incident.id}/${what}`;

const SPECIFIC_ROUTES: SpecificRoute[] = [
  {
    flag: "caller.changed",
    step: (i, d) => ({ method: "PUT", sub: "caller", body: { ...fullCaller(d, i.caller.tracks), email: null } }),
  },
  {
    flag: "caller.fullNameChanged",
    step: () => ({ method: "PATCH", sub: "caller/full-name", body: { fullName: "Kari Marie Nordmann" } }),
  },
  {
    flag: "caller.phoneNumberChanged",
    step: () => ({ method: "PATCH", sub: "caller/phone-number", body: { phoneNumber: "+4799900002" } }),
  },
  {
    flag: "caller.deviceInfoChanged",
    step: (i) => ({
      method: "PATCH",
      sub: "caller/device-info",
      body: { deviceInfo: i.caller.deviceInfo && { ...i.caller.deviceInfo, batteryLevel: 41 } },
    }),
  },
  {
    flag: "caller.chat.activated",
    step: (i, d) => ({
      method: "POST",
      sub: "caller/chat/activated",
      body: { chat: { state: "Active", activatedAtUtc: d.now().toISOString(), portalUrl: portal(d, i, "chat") } },
    }),
  },
  {
    flag: "caller.liveVideo.activated",
    step: (i, d) => ({
      method: "POST",
      sub: "caller/live-video/activated",
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
  { flag: "caller.liveVideo.ended", step: () => ({ method: "POST", sub: "caller/live-video/ended" }) },
  {
    flag: "involvedAgency.invited",
    step: (_i, d) => ({
      method: "POST",
      sub: "involved-agency",
      body: {
        agency: {
          id: "0b0c5b52-1c0e-4a57-9a57-0000000000c0",
          displayName: "Conformance Fire Service",
          collaboration: "Pending",
          invitedBy: { id: d.agency.id, displayName: d.agency.displayName },
        },
      },
    }),
  },
  {
    flag: "involvedAgency.collaboration.changed",
    step: () => ({
      method: "PATCH",
      sub: "involved-agency/0b0c5b52-1c0e-4a57-9a57-0000000000c0/collaboration",
      body: { collaboration: "Accepted" },
    }),
  },
  { flag: "labelChanged", step: () => ({ method: "PATCH", sub: "label", body: { label: null } }) },
  {
    flag: "summaryChanged",
    step: () => ({ method: "PATCH", sub: "summary", body: { summary: "Caller found, ambulance on scene." } }),
  },
  { flag: "callSignChanged", step: () => ({ method: "PATCH", sub: "call-sign", body: { callSign: "CONF-2" } }) },
  {
    flag: "patient.descriptionChanged",
    step: () => ({ method: "PATCH", sub: "patient/description", body: { description: null } }),
  },
];

const SUPERSEDED_BY_CALLER_CHANGED = new Set([
  "caller.fullNameChanged",
  "caller.phoneNumberChanged",
  "caller.deviceInfoChanged",
]);

/** The specific routes this receiver will be called on (rule 3: caller.changed supersedes the three caller PATCH routes). */
export function declaredSpecificSteps(
  about: TAbout,
  incident: TIncidentSnapshotV3,
  deps: SampleDeps,
): { flags: string[]; steps: EventStep[] } {
  const composed = declares(about, "caller.changed");
  const routes = SPECIFIC_ROUTES.filter(
    (r) => declares(about, r.flag) && !(composed && SUPERSEDED_BY_CALLER_CHANGED.has(r.flag)),
  );
  return {
    flags: routes.map((r) => r.flag),
    steps: routes.map((r) => {
      const { sub, ...step } = r.step(incident, deps);
      return { ...step, path: `/v3/incidents/${incident.id}/${sub}` };
    }),
  };
}
