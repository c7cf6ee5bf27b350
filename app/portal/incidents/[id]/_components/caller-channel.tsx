// The portal side of chat and live video: a simple page showing the channel's
// state as the incident now stands (the simulator plays the caller's side).
import { notFound } from "next/navigation";
import { getRuntime } from "@/server/platform/runtime";
import { readIncident } from "@/server/incidents/read-incident";

export async function CallerChannel({ incidentId, channel }: { incidentId: string; channel: "chat" | "liveVideo" }) {
  const incident = await readIncident({ db: getRuntime().db, incidentId });
  if (!incident) notFound();
  const { snapshot } = incident;
  const state = channel === "chat" ? snapshot.caller.chat : snapshot.caller.liveVideo;
  const title = channel === "chat" ? "Caller chat" : "Live video";
  return (
    <main className="mx-auto max-w-2xl p-8">
      <p className="text-xs font-semibold uppercase tracking-wider text-orange-800">Incident {snapshot.label ? `· ${snapshot.label}` : ""}</p>
      <h1 className="mt-1 text-2xl font-semibold">{title}</h1>
      <dl className="mt-6 grid grid-cols-[10rem_1fr] gap-y-2 text-sm">
        <dt className="text-slate-600">Incident</dt><dd className="font-mono">{snapshot.id}</dd>
        <dt className="text-slate-600">Caller</dt><dd>{snapshot.caller.fullName ?? "unknown"} · {snapshot.caller.phoneNumber ?? "no number"}</dd>
        <dt className="text-slate-600">State</dt>
        <dd data-testid="channel-state" className="font-medium">{state ? state.state : "Not activated"}</dd>
        {state && (<><dt className="text-slate-600">Activated</dt><dd>{state.activatedAtUtc}</dd></>)}
        {state && "endedAtUtc" in state && state.endedAtUtc && (<><dt className="text-slate-600">Ended</dt><dd>{state.endedAtUtc}</dd></>)}
        {incident.closedAt && (<><dt className="text-slate-600">Incident closed</dt><dd>{incident.closedAt.toISOString()}</dd></>)}
      </dl>
      <p className="mt-8 rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">
        The workbench simulates the caller: {channel === "chat" ? "messages" : "the video stream"} are not carried here.
      </p>
    </main>
  );
}
