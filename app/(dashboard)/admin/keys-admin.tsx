"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";
import { calls, useMayCall } from "../_components/may-call";
import { th } from "./admin-classes";

const td = "px-4 py-2 text-sm";

export function KeysAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.identity.keys.list.queryOptions());
  const mayRotate = useMayCall("identity.keys.rotate");
  const rotate = useMutation(
    trpc.identity.keys.rotate.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.identity.keys.list.queryKey() }),
    }),
  );
  return (
    <section aria-labelledby="keys-h" className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h2 id="keys-h" className="text-sm font-semibold">
          Signing keys (RS256, published at /.well-known/jwks.json)
        </h2>
        {mayRotate && (
          <button
            {...calls("identity.keys.rotate")}
            type="button"
            disabled={rotate.isPending}
            onClick={() => rotate.mutate()}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50"
          >
            Rotate signing key
          </button>
        )}
      </div>
      <p className="px-4 pt-3 text-xs text-slate-600">
        Rotation makes a new key current at once; the previous key stays in the JWKS until every token it signed has
        expired, so receivers that cache the JWKS see no gap.
      </p>
      {rotate.data && (
        <p role="status" className="px-4 pt-2 text-sm">
          New current key <span className="font-mono">{rotate.data.kid}</span>.
        </p>
      )}
      {rotate.error && (
        <p role="alert" className="px-4 pt-2 text-sm text-red-700">
          {rotate.error.message}
        </p>
      )}
      <table className="mt-2 min-w-full divide-y divide-slate-100">
        <thead>
          <tr>
            <th className={th}>kid</th>
            <th className={th}>State</th>
            <th className={th}>Created</th>
            <th className={th}>Published until</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100" data-testid="signing-keys">
          {keys.data?.map((k) => (
            <tr key={k.kid}>
              <td className={`${td} font-mono text-xs`}>{k.kid}</td>
              <td className={td}>{k.state}</td>
              <td className={`${td} font-mono text-xs`}>{k.createdAt.toISOString()}</td>
              <td className={`${td} font-mono text-xs`}>
                {k.state === "current" ? "—" : k.retireAfter?.toISOString()}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
