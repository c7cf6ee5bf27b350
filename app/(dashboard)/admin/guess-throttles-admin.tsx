"use client";
// What wrong guesses are slowing down now (docs/decisions/0051, 0070): each account, (address,
// account) pair and address that counts failures in its 15-minute window, the ones waiting first,
// and a way to end an account's or an address's wait (a shared NAT, a partner's CI that mistyped a
// secret). Admins only: the procedure is adminProcedure and the section sits in a RoleGate.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";
import { td } from "./admin-classes";
import { ActionError, AdminTableHead, NoRows } from "./admin-table";

const subtle =
  "rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50";

const SCOPE_WORDS = {
  pair: "this account from this address",
  account: "this account from any address",
  source: "any account from this address",
} as const;

export function GuessThrottlesAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const throttles = useQuery({ ...trpc.access.guessThrottles.queryOptions(), refetchInterval: 5_000 });
  const clear = useMutation(
    trpc.access.clearGuessThrottle.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.access.guessThrottles.queryKey() }),
    }),
  );
  return (
    <section aria-labelledby="throttles-h" className="rounded-lg border border-slate-200 bg-white">
      <h2 id="throttles-h" className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        Slowed-down sign-ins (wrong client secrets and member passwords, last 15 minutes)
      </h2>
      <ActionError errors={[clear.error, throttles.error]} />
      <table className="min-w-full divide-y divide-slate-100">
        <AdminTableHead columns={["Wrong", "Counts", "Account", "Address", "Failures", "State"]} />
        <tbody className="divide-y divide-slate-100" data-testid="guess-throttles">
          {throttles.data?.map((t) => (
            <tr key={`${t.kind} ${t.scope} ${t.subject ?? ""} ${t.source ?? ""}`}>
              <td className={`${td} whitespace-nowrap`}>{t.kind === "client" ? "client secret" : "password"}</td>
              <td className={td}>{SCOPE_WORDS[t.scope]}</td>
              <td className={`${td} whitespace-nowrap font-mono text-xs`}>{t.subject ?? "—"}</td>
              <td className={`${td} whitespace-nowrap font-mono text-xs`}>{t.source ?? "—"}</td>
              <td className={`${td} whitespace-nowrap tabular-nums`}>
                {t.failures} <span className="text-slate-500">({t.freeFailures} free)</span>
              </td>
              <td className={td}>
                {t.waitS > 0 ? (
                  <strong className="text-red-800">waiting {formatWait(t.waitS)}</strong>
                ) : (
                  "counting, not waiting"
                )}
              </td>
              <td className={`${td} whitespace-nowrap`}>
                {t.scope !== "source" && t.subject !== null && (
                  <button
                    type="button"
                    className={subtle}
                    disabled={clear.isPending}
                    onClick={() => clear.mutate({ kind: t.kind, subject: t.subject! })}
                  >
                    Clear account
                  </button>
                )}
                {t.scope !== "account" && t.source !== null && (
                  <button
                    type="button"
                    className={`${subtle} ml-2`}
                    disabled={clear.isPending}
                    onClick={() => clear.mutate({ kind: t.kind, source: t.source! })}
                  >
                    Clear address
                  </button>
                )}
              </td>
            </tr>
          ))}
          <NoRows rows={throttles.data} columns={7}>
            No wrong secrets or passwords in the last 15 minutes. After a few, an account, an address, or the pair of
            the two waits before it may try again; a right secret from an address the account signed in from before
            still gets in.
          </NoRows>
        </tbody>
      </table>
    </section>
  );
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
