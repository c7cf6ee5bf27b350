"use client";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { formatDuration } from "../../_components/format";
import { ClientForm } from "@/app/_components/ui/form";
import { calls } from "../../_components/may-call";

export function TokenInspector() {
  const trpc = useTRPC();
  const inspect = useMutation(trpc.identity.tokens.inspect.mutationOptions());
  const r = inspect.data;
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    inspect.mutate({ token: String(new FormData(e.currentTarget).get("token") ?? "") });
  }
  return (
    <div className="grid max-w-4xl gap-4">
      <ClientForm onSubmit={onSubmit} className="grid gap-2">
        <label htmlFor="token" className="text-sm font-medium">
          Access token
        </label>
        <textarea
          id="token"
          name="token"
          required
          rows={5}
          spellCheck={false}
          autoComplete="off"
          className="rounded-md border border-slate-400 p-2 font-mono text-xs"
        />
        <div>
          <button
            {...calls("identity.tokens.inspect")}
            type="submit"
            disabled={inspect.isPending}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50"
          >
            Inspect
          </button>
        </div>
      </ClientForm>
      {inspect.error && (
        <p role="alert" className="text-sm text-red-700">
          {inspect.error.message}
        </p>
      )}
      {r && !r.decoded && (
        <p role="alert" className="text-sm text-red-700">
          {r.message}
        </p>
      )}
      {r?.decoded && (
        <section aria-label="Result" className="grid gap-4">
          <p
            role="status"
            data-testid="verification"
            className={`rounded-md p-3 text-sm font-medium ${r.verification.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
          >
            {r.verification.ok
              ? "Verifies against the current JWKS."
              : `Does not verify: ${r.verification.message} (${r.verification.reason}).`}{" "}
            {r.expiresAt &&
              (r.expiresInS! > 0
                ? `Expires ${r.expiresAt} (in ${formatDuration(r.expiresInS! * 1000)} on the workbench clock).`
                : `Expired ${r.expiresAt} (workbench time ${r.workbenchNow}).`)}
          </p>
          <div className="grid gap-4 md:grid-cols-2">
            <div>
              <h2 className="mb-1 text-sm font-semibold">Header</h2>
              <pre className="overflow-x-auto [contain:inline-size] rounded-md bg-slate-900 p-3 text-xs text-slate-100">
                {JSON.stringify(r.header, null, 2)}
              </pre>
            </div>
            <div>
              <h2 className="mb-1 text-sm font-semibold">Claims</h2>
              <pre
                className="overflow-x-auto [contain:inline-size] rounded-md bg-slate-900 p-3 text-xs text-slate-100"
                data-testid="claims"
              >
                {JSON.stringify(r.claims, null, 2)}
              </pre>
            </div>
          </div>
        </section>
      )}
    </div>
  );
}
