// Caller data that simulated sources supply (the inbound API cannot change
// these: caller.phoneNumber "cannot be changed afterwards through this API").
// Each maps to the change kind the webhook planner routes (change-record.ts).
import { applyIncidentChange } from "./apply-change.ts";
import type { IncidentChangeKind } from "./change-record.ts";
import type { IncidentOperation } from "./change-types.ts";
import type { TCaller, TDeviceInfo, TIncidentSnapshotV3, TMedicData } from "./snapshot.schema.ts";
import { withTemporaryInformation } from "./temporary-information.ts";

function changeCaller<R>(
  options: IncidentOperation,
  change: (caller: TCaller, snapshot: TIncidentSnapshotV3) => { kind: IncidentChangeKind; result: R } | undefined,
) {
  return applyIncidentChange({
    ...options,
    mutate: ({ incident }) => {
      const before = JSON.stringify(incident.snapshot.caller);
      const outcome = change(incident.snapshot.caller, incident.snapshot);
      // Unchanged data records nothing.
      if (!outcome || JSON.stringify(incident.snapshot.caller) === before)
        return { changes: [], result: outcome?.result as R };
      return { changes: [outcome.kind], result: outcome.result };
    },
  });
}

export const setDeviceInfo = (o: IncidentOperation & { deviceInfo: TDeviceInfo | null }) =>
  changeCaller(o, (c) => {
    c.deviceInfo = o.deviceInfo;
    return { kind: { kind: "caller.deviceInfoChanged" }, result: c.deviceInfo };
  });

export const setCallerFullName = (o: IncidentOperation & { fullName: string | null }) =>
  changeCaller(o, (c) => {
    c.fullName = o.fullName;
    return { kind: { kind: "caller.fullNameChanged" }, result: c.fullName };
  });

/** A phone number became available (e.g. resolved from an app account). */
export const setCallerPhoneNumber = (o: IncidentOperation & { phoneNumber: string | null }) =>
  changeCaller(o, (c) => {
    c.phoneNumber = o.phoneNumber;
    return { kind: { kind: "caller.phoneNumberChanged" }, result: c.phoneNumber };
  });

/** The caller's medical data; an unexpired temporary-information warning stays merged into its notes (temporary-information.ts). */
export const setMedicData = (o: IncidentOperation & { medicData: TMedicData | null }) =>
  applyIncidentChange({
    ...o,
    mutate: ({ incident }) => {
      const before = JSON.stringify(incident.snapshot.caller.medicData);
      const temporary = incident.internal.temporaryInformation;
      if (temporary)
        incident.internal.temporaryInformation = {
          ...temporary,
          callerNotes: o.medicData?.notes.caller ?? null,
          medicDataAdded: o.medicData === null,
        };
      incident.snapshot.caller.medicData = withTemporaryInformation(
        o.medicData,
        incident.internal.temporaryInformation,
      );
      const result = incident.snapshot.caller.medicData;
      if (JSON.stringify(result) === before) return { changes: [], result, internalChanged: !!temporary };
      return { changes: [{ kind: "caller.changed", what: "medicData" }], result };
    },
  });

/**
 * What the caller reported (spec: caller.reportedProblems, thirteen flags): the named problems become
 * true, the others keep their value, so a second report adds to the first rather than replacing it.
 */
export const reportProblems = (o: IncidentOperation & { problems: ReadonlyArray<keyof TCaller["reportedProblems"]> }) =>
  changeCaller(o, (c) => {
    for (const p of o.problems) c.reportedProblems[p] = true;
    return { kind: { kind: "caller.changed", what: "reportedProblems" }, result: c.reportedProblems };
  });

export type DataSourceLink =
  | { kind: "mobileApp"; appInfo: { name: string; version: string } }
  | { kind: "webApp" }
  | { kind: "googleEls" }
  | {
      kind: "appleEed";
      hasLocation: boolean;
      hasLiveVideo: boolean;
      hasMediaUpload: boolean;
      hasAdditionalData: boolean;
    };

/** A data source linked: the most recent of one kind is reflected (spec "dataSources"). */
export const linkDataSource = (o: IncidentOperation & { source: DataSourceLink }) =>
  changeCaller(o, (c) => {
    const { kind, ...fields } = o.source;
    if (kind === "mobileApp") c.dataSources.mobileApp = fields as { appInfo: { name: string; version: string } };
    else if (kind === "appleEed") c.dataSources.appleEed = fields as NonNullable<TCaller["dataSources"]["appleEed"]>;
    else c.dataSources[kind] = {};
    return { kind: { kind: "caller.changed", what: `dataSources.${kind}` }, result: c.dataSources };
  });
