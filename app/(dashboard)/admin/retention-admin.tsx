"use client";
// What the workbench keeps and how much disk it takes (docs/retention.md): admins only, as the
// retention router's procedures are.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";
import { formatExact } from "@/app/_components/ui/format-age";
import { Table, TBody, TD, TH, THead, TR } from "@/app/_components/ui/table";
import { button } from "./admin-classes";
import type { RetentionStatus } from "@/server/workbench/retention/read-retention-status";
import { describePruned, formatBytes, formatRows } from "./describe-retention";
import { calls } from "../_components/may-call";

export function RetentionAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.retention.status.queryOptions());
  const prune = useMutation(
    trpc.retention.pruneNow.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.retention.status.queryKey() }),
    }),
  );
  const s = status.data;
  return (
    <section
      aria-labelledby="retention-h"
      className="rounded-lg border border-slate-200 bg-white"
      data-testid="retention"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h2 id="retention-h" className="text-sm font-semibold">
          Kept data and disk
        </h2>
        <button
          {...calls("retention.pruneNow")}
          type="button"
          className={button}
          disabled={prune.isPending || !s || s.retentionDays === 0}
          onClick={() => prune.mutate()}
        >
          {prune.isPending ? "Pruning…" : "Prune now"}
        </button>
      </div>
      {status.error && (
        <p role="alert" className="px-4 pt-3 text-sm text-red-700">
          {status.error.message}
        </p>
      )}
      {s && (
        <div className="space-y-1 px-4 pt-3 text-sm" data-testid="retention-policy">
          {s.retentionDays === 0 ? (
            <p>
              <strong>RETENTION_DAYS=0</strong>: nothing is pruned, everything is kept.
            </p>
          ) : (
            <p>
              Finished deliveries, receiver records, conformance runs and spent sign-in artefacts are pruned{" "}
              <strong>{s.retentionDays} days</strong> of workbench time after they finished (RETENTION_DAYS): now
              whatever finished before <span className="font-mono text-xs">{formatExact(s.cutoff ?? "")}</span>.
              Incidents, their change history and a lane&apos;s undelivered events are kept.
            </p>
          )}
          <LastRun run={s.lastRun} />
          {prune.data && (
            <p role="status">
              {prune.data.ran
                ? `Pruned ${describePruned(prune.data.pruned)}.`
                : "A run is pruning this database right now (the scheduled one, or another process's); it shows here when it ends."}
            </p>
          )}
          {prune.error && (
            <p role="alert" className="text-red-700">
              {prune.error.message}
            </p>
          )}
          {s.retentionDays !== 0 && (
            <p className="text-xs text-slate-600">
              PostgreSQL reuses the space of pruned rows for new ones rather than giving it back: after pruning, the
              disk figures stay level while new data fills the space.
            </p>
          )}
        </div>
      )}
      {s && <StorageTable status={s} />}
    </section>
  );
}

type Status = RetentionStatus;

function LastRun({ run }: { run: Status["lastRun"] }) {
  if (!run)
    return (
      <p data-testid="retention-last-run">No run yet: the pruner runs every five minutes and after a clock move.</p>
    );
  return (
    <p data-testid="retention-last-run">
      Last run <span className="font-mono text-xs">{formatExact(run.startedAt)}</span>
      {run.finishedAt ? "" : " (still running)"}: pruned {describePruned(run.pruned)}. Since the first run:{" "}
      {describePruned(run.prunedTotal)}.
      {run.error && <span className="text-red-700"> It stopped early: {run.error}</span>}
    </p>
  );
}

function StorageTable({ status }: { status: Status }) {
  return (
    <Table className="mt-3" data-testid="retention-storage">
      <THead>
        <tr>
          <TH>What</TH>
          <TH>Kept</TH>
          <TH className="text-right">Rows</TH>
          <TH className="text-right">Disk</TH>
        </tr>
      </THead>
      <TBody>
        {status.groups.map((g) => (
          <TR key={g.id}>
            <TD>{g.label}</TD>
            <TD>{g.policy === "kept" || status.retentionDays === 0 ? "always" : `${status.retentionDays} days`}</TD>
            <TD className="text-right tabular-nums">{formatRows(g.rows, g.rowsCapped, status.countCap)}</TD>
            <TD className="text-right tabular-nums">{formatBytes(g.bytes)}</TD>
          </TR>
        ))}
        <TR>
          <TD>Everything else (directory, settings, PostgreSQL&apos;s catalog)</TD>
          <TD>always</TD>
          <TD className="text-right">—</TD>
          <TD className="text-right tabular-nums">{formatBytes(status.otherBytes)}</TD>
        </TR>
        <TR className="font-semibold">
          <TD>The whole database</TD>
          <TD />
          <TD />
          <TD className="text-right tabular-nums">{formatBytes(status.databaseBytes)}</TD>
        </TR>
      </TBody>
    </Table>
  );
}
