"use client";
import { useId } from "react";
import type { TIncidentSnapshotV3 } from "@/server/incidents/snapshot.schema";
import { CallerTrackMap } from "../map/caller-track-map";
import { CopyButton } from "../ui/copy-button";
import { SectionCard } from "../ui/card";
import { KeyValueList } from "../ui/key-value";
import { PurposeBadge } from "../ui/purpose-badge";
import { AgenciesView } from "./agencies-view";
import { CallerDetails } from "./caller-details";
import { CommunicationView } from "./communication-view";
import { DataSourcesView, DeviceInfoView } from "./device-info-view";
import { incidentTitle, reportedProblemsOf } from "./describe-incident";
import { formatUtc } from "./labels";
import { MedicDataView } from "./medic-data-view";
import { ReportedProblems } from "./reported-problems";

export type IncidentSnapshotViewProps = {
  snapshot: TIncidentSnapshotV3;
  /** Draw caller.tracks on a CallerTrackMap (default true). */
  showMap?: boolean;
  /**
   * The title block and the reported problems (default true). The portal leaves them out: its
   * header strip says what, where, who and how fresh above the map and the chat.
   */
  showHeader?: boolean;
  tileUrl?: string;
  className?: string;
};

/** A dispatcher's view of one v3 snapshot. Every nullable member renders as "—" / "not known". */
export function IncidentSnapshotView({
  snapshot,
  showMap = true,
  showHeader = true,
  tileUrl,
  className,
}: IncidentSnapshotViewProps) {
  const id = useId();
  const s = snapshot;
  const test = s.purpose === "Test";
  const title = incidentTitle({
    label: s.label,
    problems: reportedProblemsOf(s.caller.reportedProblems),
    callerName: s.caller.fullName,
    callerPhone: s.caller.phoneNumber,
  });
  return (
    <article
      className={className}
      aria-labelledby={showHeader ? `${id}-title` : undefined}
      aria-label={showHeader ? undefined : "Incident details"}
      data-testid="incident-snapshot"
      data-purpose={s.purpose}
    >
      {showHeader && (
        <header
          className={test ? "mb-4 rounded-lg border-2 border-dashed border-violet-400 bg-violet-50/60 p-4" : "mb-4"}
        >
          <div className="flex flex-wrap items-center gap-3">
            <PurposeBadge purpose={s.purpose} />
            {s.callSign && (
              <span className="rounded bg-slate-900 px-2 py-0.5 font-mono text-xs font-semibold text-white">
                {s.callSign}
              </span>
            )}
            <span className="font-mono text-xs text-slate-600">created {formatUtc(s.createdAtUtc)}</span>
          </div>
          <h2 id={`${id}-title`} className="mt-2 text-xl font-semibold tracking-tight">
            {title}
          </h2>
          {s.summary && <p className="mt-1 max-w-3xl text-sm text-slate-700">{s.summary}</p>}
          <KeyValueList
            className="mt-3"
            columns={3}
            items={[
              { label: "Patient", value: s.patient.description },
              {
                label: "Incident id",
                value: (
                  <span className="inline-flex max-w-full items-center gap-1">
                    <span className="break-all font-mono text-xs">{s.id}</span>
                    <CopyButton value={s.id} label="Copy incident id" />
                  </span>
                ),
              },
              {
                label: "Open in portal",
                value: (
                  <a href={s.openUrl} className="text-sm text-orange-800 underline-offset-2 hover:underline">
                    {new URL(s.openUrl, "http://x").pathname}
                  </a>
                ),
              },
            ]}
          />
        </header>
      )}
      <div className="grid gap-4 xl:grid-cols-3">
        {showHeader && (
          <SectionCard id={`${id}-problems`} title="Reported problems" className="xl:col-span-3">
            <ReportedProblems problems={s.caller.reportedProblems} />
          </SectionCard>
        )}
        <SectionCard id={`${id}-caller`} title="Caller" className="xl:col-span-2">
          <CallerDetails caller={s.caller} />
        </SectionCard>
        <SectionCard id={`${id}-device`} title="Device">
          <DeviceInfoView device={s.caller.deviceInfo} />
        </SectionCard>
        {showMap && (
          <SectionCard id={`${id}-map`} title="Caller location" className="xl:col-span-3">
            <CallerTrackMap tracks={s.caller.tracks} tileUrl={tileUrl} />
          </SectionCard>
        )}
        <SectionCard id={`${id}-medic`} title="Medical data" className="xl:col-span-2">
          <MedicDataView medic={s.caller.medicData} />
        </SectionCard>
        <SectionCard id={`${id}-sources`} title="Data sources">
          <DataSourcesView sources={s.caller.dataSources} tracks={s.caller.tracks} />
        </SectionCard>
        <SectionCard id={`${id}-comms`} title="Chat and live video" className="xl:col-span-1">
          <CommunicationView chat={s.caller.chat} liveVideo={s.caller.liveVideo} />
        </SectionCard>
        <SectionCard id={`${id}-agencies`} title="Involved agencies" className="xl:col-span-2" bodyClassName="p-0">
          <AgenciesView agencies={s.involvedAgencies} />
        </SectionCard>
      </div>
    </article>
  );
}
