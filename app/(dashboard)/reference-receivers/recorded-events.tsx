"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";
import { isLegacyCredentialProbe } from "@/server/reference-receiver/legacy-credential-probe";

export function RecordedEvents({ receiverKey }: { receiverKey: string }) {
  const trpc = useTRPC();
  const events = useQuery({
    ...trpc.receivers.events.queryOptions({ key: receiverKey, limit: 20 }),
    refetchInterval: 2_000,
  });
  return (
    <div className="mt-5">
      <h3 className="mb-2 text-sm font-semibold">Recently recorded</h3>
      {events.data?.length === 0 && <p className="text-sm text-slate-500">Nothing recorded yet.</p>}
      {events.data && events.data.length > 0 && (
        <div
          className="overflow-x-auto"
          tabIndex={0}
          role="region"
          aria-label={`${receiverKey}: recorded events (scrollable)`}
        >
          <table className="w-full text-left text-xs" aria-label={`${receiverKey}: recorded events`}>
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 pr-3">received</th>
                <th className="pr-3">status</th>
                <th className="pr-3">route</th>
                <th className="pr-3">incident</th>
                <th>marks</th>
              </tr>
            </thead>
            <tbody>
              {events.data.map((e) => (
                <tr key={e.id} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-3 font-mono">{e.receivedAt.slice(11, 23)}</td>
                  <td
                    className={`pr-3 font-mono ${e.status === 200 ? "text-green-800" : isLegacyCredentialProbe(e) ? "text-slate-600" : "text-red-700"}`}
                  >
                    {e.status || "—"}
                  </td>
                  <td className="pr-3 font-mono">
                    {e.method} {e.path}
                  </td>
                  <td className="pr-3 font-mono">{e.incidentId?.slice(0, 8) ?? ""}</td>
                  <td className="flex flex-wrap gap-1">
                    {e.isTest && <Mark tone="blue">TEST — not a real emergency</Mark>}
                    {e.duplicates > 0 && <Mark tone="slate">duplicate ×{e.duplicates}</Mark>}
                    {isLegacyCredentialProbe(e) ? (
                      <Mark tone="slate" testId="legacy-probe">
                        expected: discovery&apos;s legacy-credential probe (the spec has discovery try the PsapConnector
                        credential first; a 3.x receiver refuses it, then accepts Publisher)
                      </Mark>
                    ) : (
                      e.outcome !== "accepted" && (
                        <Mark tone="red">
                          {e.outcome}: {e.detail}
                        </Mark>
                      )
                    )}
                    {e.anomalies.map((a) => (
                      <Mark key={a} tone="amber">
                        {a}
                      </Mark>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

const TONES = {
  blue: "bg-blue-100 text-blue-900",
  slate: "bg-slate-200 text-slate-900",
  red: "bg-red-100 text-red-900",
  amber: "bg-amber-100 text-amber-900",
};

function Mark({ tone, children, testId }: { tone: keyof typeof TONES; children: React.ReactNode; testId?: string }) {
  return (
    <span className={`rounded px-1.5 py-0.5 ${TONES[tone]}`} data-testid={testId}>
      {children}
    </span>
  );
}
