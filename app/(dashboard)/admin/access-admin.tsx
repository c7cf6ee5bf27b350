"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { calls } from "../_components/may-call";
import { useCaller } from "../_components/use-caller";
import { button, td } from "./admin-classes";
import { ActionError, AdminTableHead, NoRows } from "./admin-table";

const subtle =
  "rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50";
const field = "rounded-md border border-slate-400 px-2 py-1.5 text-sm";
const ROLES = ["viewer", "integrator", "admin"] as const;

/** How the workbench is exposed: every role sees it. */
export function AccessModePanel() {
  const { data } = useCaller();
  if (!data) return null;
  return (
    <section
      aria-labelledby="access-mode-h"
      className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm"
      data-testid="access-mode-panel"
    >
      <h2 id="access-mode-h" className="font-semibold">
        Access
      </h2>
      <p className="mt-1">
        Mode: <strong data-testid="access-mode-value">{data.mode}</strong>{" "}
        {data.mode === "local"
          ? "(listening on loopback only: no sign-in, you act as admin)."
          : "(reachable beyond loopback: every dashboard page and API call is signed in)."}
      </p>
      <p className="mt-1">
        Dev credentials (seeded client secrets, the portal password <code>workbench</code>):{" "}
        <strong data-testid="dev-credentials-value">{data.devCredentials}</strong>
        {data.mode === "shared" && data.devCredentials === "refused"
          ? ". Rotate the seeded clients' secrets below, or start with ALLOW_DEV_CREDENTIALS=true."
          : "."}
      </p>
    </section>
  );
}

export function MembersAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.access.members.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.access.members.list.queryKey() });
  const create = useMutation(trpc.access.members.create.mutationOptions({ onSuccess: () => void refresh() }));
  const update = useMutation(trpc.access.members.update.mutationOptions({ onSuccess: () => void refresh() }));
  // Ends a member's wait after wrong passwords (docs/decisions/0051-guessing-slowed-down.md).
  const clearWait = useMutation(trpc.access.clearGuessThrottle.mutationOptions());

  function onCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    create.mutate(
      {
        username: String(f.get("username")),
        role: String(f.get("role")) as (typeof ROLES)[number],
        password: String(f.get("password")),
      },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <section aria-labelledby="members-h" className="rounded-lg border border-slate-200 bg-white">
      <h2 id="members-h" className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        Workbench members (who may sign in to this shared workbench)
      </h2>
      <ActionError errors={[update.error, create.error, clearWait.error]} />
      <table className="min-w-full divide-y divide-slate-100">
        <AdminTableHead columns={["Name", "Role", "State"]} />
        <tbody className="divide-y divide-slate-100" data-testid="members">
          {members.data?.map((m) => (
            <tr key={m.id}>
              <td className={`${td} font-mono text-xs`}>{m.username}</td>
              <td className={td}>
                <select
                  aria-label={`Role of ${m.username}`}
                  className={field}
                  value={m.role}
                  disabled={update.isPending}
                  onChange={(e) => update.mutate({ id: m.id, role: e.target.value as (typeof ROLES)[number] })}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </td>
              <td className={td}>{m.disabledAt ? "disabled" : "enabled"}</td>
              <td className={td}>
                <button
                  type="button"
                  className={subtle}
                  disabled={update.isPending}
                  onClick={() => update.mutate({ id: m.id, disabled: !m.disabledAt })}
                >
                  {m.disabledAt ? "Enable" : "Disable"}
                </button>
                <button
                  type="button"
                  className={`${subtle} ml-2`}
                  disabled={clearWait.isPending}
                  onClick={() => clearWait.mutate({ kind: "member", subject: m.username })}
                >
                  Clear wait
                </button>
                {clearWait.variables &&
                  "subject" in clearWait.variables &&
                  clearWait.variables.subject === m.username &&
                  clearWait.data && (
                    <span role="status" className="ml-2 text-xs text-slate-600">
                      {clearWait.data.cleared ? "Wait cleared" : "No failed sign-ins counted"}
                    </span>
                  )}
              </td>
            </tr>
          ))}
          <NoRows rows={members.data} columns={4}>
            No members yet. Add one below; each signs in with the name and password given here.
          </NoRows>
        </tbody>
      </table>
      <form onSubmit={onCreate} className="flex flex-wrap items-end gap-3 border-t border-slate-200 px-4 py-3">
        <label className="text-xs font-semibold">
          Name
          <br />
          <input name="username" required minLength={2} maxLength={64} className={field} />
        </label>
        <label className="text-xs font-semibold">
          Role
          <br />
          <select name="role" className={field} defaultValue="viewer">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-semibold">
          Password (12+ characters)
          <br />
          <input
            name="password"
            type="password"
            required
            minLength={12}
            autoComplete="new-password"
            className={field}
          />
        </label>
        <button {...calls("access.members.create")} type="submit" className={button} disabled={create.isPending}>
          Add member
        </button>
      </form>
    </section>
  );
}

export function ApiTokensAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokens = useQuery(trpc.access.apiTokens.list.queryOptions());
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.access.apiTokens.list.queryKey() });
  const create = useMutation(
    trpc.access.apiTokens.create.mutationOptions({
      onSuccess: (r) => {
        setShown({ name: r.name, token: r.token });
        void refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.access.apiTokens.revoke.mutationOptions({ onSuccess: () => void refresh() }));

  function onCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const days = String(f.get("days") ?? "");
    create.mutate(
      {
        name: String(f.get("name")),
        role: String(f.get("role")) as (typeof ROLES)[number],
        expiresInDays: days ? Number(days) : undefined,
      },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <section aria-labelledby="api-tokens-h" className="rounded-lg border border-slate-200 bg-white">
      <h2 id="api-tokens-h" className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        API tokens (WORKBENCH_TOKEN for the CLI and CI)
      </h2>
      {shown && (
        <div role="status" className="m-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm">
          <p className="font-semibold">API token {shown.name}: copy it now, it will not be shown again.</p>
          <p className="mt-2 break-all rounded bg-white p-2 font-mono text-xs" data-testid="api-token">
            {shown.token}
          </p>
          <button type="button" onClick={() => setShown(null)} className={`${subtle} mt-2`}>
            I have stored it
          </button>
        </div>
      )}
      <ActionError errors={[create.error, revoke.error]} />
      <table className="min-w-full divide-y divide-slate-100">
        <AdminTableHead columns={["Name", "Role", "Created", "Expires", "State"]} />
        <tbody className="divide-y divide-slate-100" data-testid="api-tokens">
          {tokens.data?.map((t) => (
            <tr key={t.id}>
              <td className={td}>
                {t.name}
                <div className="font-mono text-xs text-slate-600">{t.id}</div>
              </td>
              <td className={td}>{t.role}</td>
              <td className={`${td} font-mono text-xs`}>
                {t.createdAt.toISOString()} by {t.createdBy}
              </td>
              <td className={`${td} font-mono text-xs`}>{t.expiresAt?.toISOString() ?? "never"}</td>
              <td className={td}>{t.revokedAt ? "revoked" : "active"}</td>
              <td className={td}>
                {!t.revokedAt && (
                  <button
                    type="button"
                    className={subtle}
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate({ id: t.id })}
                    aria-label={`Revoke ${t.name}`}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
          <NoRows rows={tokens.data} columns={6}>
            No API tokens yet. Create one below for the CLI or a CI job (WORKBENCH_TOKEN).
          </NoRows>
        </tbody>
      </table>
      <form onSubmit={onCreate} className="flex flex-wrap items-end gap-3 border-t border-slate-200 px-4 py-3">
        <label className="text-xs font-semibold">
          Name
          <br />
          <input name="name" required maxLength={80} className={field} />
        </label>
        <label className="text-xs font-semibold">
          Role
          <br />
          <select name="role" className={field} defaultValue="viewer">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-semibold">
          Expires in days (empty: never)
          <br />
          <input name="days" type="number" min={1} max={366} className={field} />
        </label>
        <button {...calls("access.apiTokens.create")} type="submit" className={button} disabled={create.isPending}>
          Create token
        </button>
      </form>
    </section>
  );
}
