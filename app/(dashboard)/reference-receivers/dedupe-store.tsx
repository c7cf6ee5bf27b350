"use client";
// The receiver's dedupe store (spec Delivery rule: a repeated Service-Request-Id is answered 200
// and not applied twice): the request ids it knows, newest first, with how often each came again.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";

export function DedupeStore({ receiverKey }: { receiverKey: string }) {
  const trpc = useTRPC();
  const events = useQuery({
    ...trpc.receivers.events.queryOptions({ key: receiverKey, limit: 200 }),
    refetchInterval: 2_000,
  });
  const known = (events.data ?? []).filter((e) => e.outcome === "accepted" && e.serviceRequestId);
  const repeated = known.filter((e) => e.duplicates > 0);
  return (
    <div className="mt-5" data-testid={`dedupe-${receiverKey}`}>
      <h3 className="mb-2 text-sm font-semibold">
        Dedupe store{" "}
        <span className="font-normal text-slate-600">
          — {known.length} Service-Request-Ids in the newest 200 records, {repeated.length} received more than once
        </span>
      </h3>
      {repeated.length > 0 && (
        <ul className="grid gap-1 font-mono text-xs">
          {repeated.slice(0, 10).map((e) => (
            <li key={e.id}>
              {e.serviceRequestId} · {e.method} {e.path} · repeated ×{e.duplicates}
              {e.lastDuplicateAt ? `, last at ${e.lastDuplicateAt.slice(11, 19)}` : ""}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
