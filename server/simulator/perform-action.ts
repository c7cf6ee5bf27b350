// One caller-side action on an incident, mapped onto the aggregate's domain
// functions (server/incidents): each produces the change record the webhook
// planner routes, in the change's transaction.
import { addMeasuredLocation, replaceTrack } from "../incidents/caller-track.ts";
import {
  linkDataSource,
  reportProblems,
  setCallerFullName,
  setCallerPhoneNumber,
  setDeviceInfo,
  setMedicData,
} from "../incidents/caller-data.ts";
import { closeIncident } from "../incidents/close-incident.ts";
import { setTemporaryInformation } from "../incidents/temporary-information.ts";
import { openLocationSms } from "../incidents/location-sms.ts";
import { activateChat, activateLiveVideo, endLiveVideo } from "../incidents/reach-caller.ts";
import { readIncident } from "../incidents/read-incident.ts";
import { AppError } from "../platform/errors.ts";
import { addChatMessage } from "./chat-messages.ts";
import { measuredInput, measuredLocation } from "./measured-location.ts";
import { sampleDeviceInfo, sampleMedicData } from "./sample-caller-data.ts";
import type { TSimulatorAction } from "./simulator.schema.ts";
import { SIMULATOR_ACTOR, type SimulatorDeps } from "./simulator-deps.ts";

export type ActionOutcome = {
  incidentId: string;
  action: TSimulatorAction["action"];
  version: number | null;
  changes: string[];
};

export async function performSimulatorAction(
  options: SimulatorDeps & { incidentId: string; action: TSimulatorAction },
): Promise<ActionOutcome> {
  const { incidentId, action } = options;
  const base = { db: options.db, clock: options.clock, incidentId, actor: SIMULATOR_ACTOR };
  const applied = await apply(options, base, action);
  return {
    incidentId,
    action: action.action,
    version: applied?.version ?? null,
    changes: applied?.changes.map((c) => c.kind) ?? [],
  };
}

type Base = { db: SimulatorDeps["db"]; clock: SimulatorDeps["clock"]; incidentId: string; actor: string };
type Applied = { version: number; changes: Array<{ kind: string }> } | null;

async function apply(deps: SimulatorDeps, base: Base, action: TSimulatorAction): Promise<Applied> {
  switch (action.action) {
    case "temporaryInformation":
      return setTemporaryInformation({ ...base, warning: action.warning, validForS: action.validForMinutes * 60 });
    case "location":
      return addMeasuredLocation({ ...base, source: action.source, fix: measuredInput(action.fix, deps.clock.now()) });
    case "replaceTrack":
      return replaceTrack({
        ...base,
        source: action.source,
        track: [measuredLocation({ source: action.source, fix: action.fix, now: deps.clock.now() })],
      });
    case "linkDataSource":
      return linkDataSource({ ...base, source: dataSource(action.source) });
    case "deviceInfo": {
      const current = (await readIncident({ db: deps.db, incidentId: base.incidentId }))?.snapshot.caller.deviceInfo;
      const deviceInfo = {
        ...(current ?? sampleDeviceInfo()),
        batteryLevel: action.batteryLevel,
        internetConnectionType: action.internetConnectionType,
      };
      if (action.operatingSystem !== undefined) deviceInfo.operatingSystem = action.operatingSystem;
      return setDeviceInfo({ ...base, deviceInfo });
    }
    case "fullName":
      return setCallerFullName({ ...base, fullName: action.fullName });
    case "phoneNumber":
      return setCallerPhoneNumber({ ...base, phoneNumber: action.phoneNumber });
    case "reportProblems":
      return reportProblems({ ...base, problems: action.problems });
    case "medicData":
      return setMedicData({
        ...base,
        medicData: action.medicData === undefined ? sampleMedicData() : action.medicData,
      });
    case "activateChat":
      return activateChat({ ...base, portalUrl: deps.portalUrl });
    case "chatMessage":
      await addChatMessage({ ...base, author: "Caller", text: action.text });
      return null;
    case "activateLiveVideo":
      return activateLiveVideo({ ...base, portalUrl: deps.portalUrl, durationS: deps.liveVideoDurationS });
    case "endLiveVideo":
      return endLiveVideo(base);
    case "openLocationSms":
      return openNewestSms(deps, base, action.fix);
    case "close":
      return closeIncident(base);
  }
}

function dataSource(kind: "mobileApp" | "webApp" | "googleEls" | "appleEed") {
  if (kind === "mobileApp") return { kind, appInfo: { name: "Emergency App", version: "4.2.0" } } as const;
  if (kind === "appleEed")
    return { kind, hasLocation: true, hasLiveVideo: false, hasMediaUpload: false, hasAdditionalData: true } as const;
  return { kind } as const;
}

async function openNewestSms(deps: SimulatorDeps, base: Base, fix: Parameters<typeof measuredInput>[0]) {
  const sms = await deps.db.simulatedSms.findFirst({
    where: { incidentId: base.incidentId },
    orderBy: { sentAt: "desc" },
  });
  if (!sms)
    throw new AppError(
      "SmsNotFound",
      "No location SMS was sent for this incident: POST /v1/incidents/{id}/caller/locate first.",
    );
  return openLocationSms({ db: deps.db, clock: deps.clock, smsId: sms.id, fix: measuredInput(fix, deps.clock.now()) });
}
