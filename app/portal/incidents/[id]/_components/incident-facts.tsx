"use client";
// The header strip a dispatcher reads in two seconds: what (reported problems and the medical
// facts that change the first minutes), where (the latest position in words, its accuracy,
// source and age), who (name and phone) and how fresh (the last update's age).
import type { ReactNode } from "react";
import type { TIncidentSnapshotV3 } from "@/server/incidents/snapshot.schema";
import { BatteryGauge } from "@/app/_components/incident/battery-gauge";
import { keyMedicalFlags, reportedProblemsOf } from "@/app/_components/incident/describe-incident";
import { describeFix, formatCoordinates, latestLocation } from "@/app/_components/incident/describe-location";
import { PROBLEM_LABELS } from "@/app/_components/incident/labels";
import { cn } from "@/app/_components/ui/cn";
import { CopyButton } from "@/app/_components/ui/copy-button";
import { RelativeTime } from "@/app/_components/ui/relative-time";

const FLAG_TONE = {
  danger: "bg-red-50 text-red-900 ring-red-200",
  warning: "bg-amber-50 text-amber-950 ring-amber-200",
  info: "bg-sky-50 text-sky-900 ring-sky-200",
} as const;

export function IncidentFacts({
  snapshot,
  lastUpdateAtUtc,
  updateCount,
  nowMs,
}: {
  snapshot: TIncidentSnapshotV3;
  lastUpdateAtUtc: string;
  updateCount: number;
  nowMs: number | null;
}) {
  const { caller } = snapshot;
  const problems = reportedProblemsOf(caller.reportedProblems);
  const flags = keyMedicalFlags(caller.medicData, caller.deviceInfo);
  const where = latestLocation(caller.tracks);
  const battery = caller.deviceInfo?.batteryLevel ?? null;
  return (
    <dl className="grid gap-3 text-sm" data-testid="incident-facts">
      <Fact label="What" testId="fact-what">
        {problems.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label="Reported problems">
            {problems.map((p) => (
              <li
                key={p}
                className="rounded-md bg-red-700 px-2 py-0.5 text-sm font-semibold text-white"
                data-testid="reported-problem"
              >
                {PROBLEM_LABELS[p]}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-700">No problem reported yet.</p>
        )}
        {flags.length > 0 && (
          <ul className="mt-1.5 flex flex-wrap gap-1.5" aria-label="Medical flags" data-testid="medical-flags">
            {flags.map((f) => (
              <li
                key={f.key}
                className={cn(
                  "max-w-full rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
                  FLAG_TONE[f.tone],
                )}
              >
                {f.text}
              </li>
            ))}
          </ul>
        )}
      </Fact>
      <Fact label="Where" testId="fact-where">
        {where ? (
          <>
            <p className="flex flex-wrap items-center gap-x-1">
              <span className="font-mono text-[13px] font-medium">
                {formatCoordinates(where.latitude, where.longitude)}
              </span>
              <CopyButton
                value={`${where.latitude.toFixed(6)}, ${where.longitude.toFixed(6)}`}
                label="Copy coordinates"
              />
            </p>
            <p className="text-slate-700">
              {describeFix(where)} ·{" "}
              <span data-testid="latest-position-age">
                <RelativeTime iso={where.capturedAtUtc} nowMs={nowMs} className="font-semibold text-slate-900" />
              </span>
            </p>
          </>
        ) : (
          <p className="text-slate-700">No location yet.</p>
        )}
      </Fact>
      <Fact label="Who" testId="fact-who">
        <p className="font-medium">{caller.fullName ?? <span className="text-slate-600">Name not known</span>}</p>
        <p className="flex flex-wrap items-center gap-x-2">
          {caller.phoneNumber ? (
            <>
              <a className="font-mono underline-offset-2 hover:underline" href={`tel:${caller.phoneNumber}`}>
                {caller.phoneNumber}
              </a>
              <CopyButton value={caller.phoneNumber} label="Copy phone number" />
            </>
          ) : (
            <span className="text-slate-600">No phone number</span>
          )}
          {battery !== null && (
            <span className="inline-flex items-center gap-1 text-xs text-slate-700">
              Battery <BatteryGauge level={battery} />
            </span>
          )}
        </p>
      </Fact>
      <Fact label="Updated" testId="fact-fresh">
        <p className="text-slate-700">
          <span data-testid="last-update-age">
            <RelativeTime iso={lastUpdateAtUtc} nowMs={nowMs} className="font-semibold text-slate-900" />
          </span>
          {" · "}
          {updateCount} {updateCount === 1 ? "update" : "updates"} · opened{" "}
          <RelativeTime iso={snapshot.createdAtUtc} nowMs={nowMs} />
        </p>
      </Fact>
    </dl>
  );
}

function Fact({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[4.5rem_minmax(0,1fr)] items-baseline gap-2" data-testid={testId}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}
