"use client";
// Step 1 of the console: a token from the real POST /connect/token (form fields, spec "Token
// request"), sent by this browser to the workbench's identity server. The secret is typed here
// and kept in memory only; the seed clients' documented secrets are filled in for convenience.
import { useQuery } from "@tanstack/react-query";
import { decodeJwt } from "jose";
import { useEffect, useMemo, useState } from "react";
import { JsonView } from "@/app/_components/json/json-view";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { CodeBlock } from "@/app/_components/ui/code-block";
import { Field, Input, Select } from "@/app/_components/ui/form";
import { useTRPC } from "@/app/_trpc/react";
import { tokenRequestCurl } from "./build-request";
import { CONSOLE_HEADER } from "@/server/client-calls/console-header";

/** workbench-decisions.md, seed table: documented, not secret in the workbench. */
const SEED_SECRETS: Record<string, string> = {
  "partner-cad": "partner-cad-secret",
  "partner-readonly": "partner-readonly-secret",
};
export type ConsoleToken = { accessToken: string; claims: Record<string, unknown> };
type TokenOutcome = { status: number; body: unknown; curl: string };

export function TokenPanel({ onToken }: { onToken: (t: ConsoleToken | null) => void }) {
  const trpc = useTRPC();
  const directory = useQuery(trpc.directory.list.queryOptions());
  const clients = (directory.data?.clients ?? []).filter((c) => c.grantTypes.includes("client_credentials"));
  const [clientId, setClientId] = useState("partner-cad");
  const [secret, setSecret] = useState(SEED_SECRETS["partner-cad"]!);
  const [agency, setAgency] = useState("");
  const [username, setUsername] = useState("");
  const [scope, setScope] = useState("");
  const [outcome, setOutcome] = useState<TokenOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const client = clients.find((c) => c.clientId === clientId);
  const agencies = (directory.data?.agencies ?? []).filter((a) => client?.agencyIds.includes(a.id));
  const users = (directory.data?.users ?? []).filter((u) => u.agencyId === agency && u.clientIds.includes(clientId));
  // A new client: its agencies, scopes and (for seed clients) secret.
  useEffect(() => {
    if (!client) return;
    setAgency((a) => (client.agencyIds.includes(a) ? a : (client.agencyIds[0] ?? "")));
    setScope(client.scopes.filter((s) => s !== "identity.user.signin" || client.scopes.length === 1).join(" "));
    setSecret(SEED_SECRETS[client.clientId] ?? "");
  }, [client]);
  // The default user: one whose name is unambiguous (the seed's j.smith / J.Smith pair is the UsernameAmbiguous case).
  const preferred =
    users.find(
      (u) => u.canSignIn && users.filter((o) => o.username.toLowerCase() === u.username.toLowerCase()).length === 1,
    ) ?? users[0];
  useEffect(() => {
    if (username && !users.some((u) => u.username === username)) setUsername(preferred?.username ?? "");
  }, [users, username, preferred]);
  useEffect(() => {
    if (!username && preferred && scope.includes("username.required")) setUsername(preferred.username);
  }, [preferred, username, scope]);

  const fields = useMemo(
    () => ({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: secret,
      scope,
      agency_context: agency,
      username,
    }),
    [clientId, secret, scope, agency, username],
  );
  async function requestToken() {
    setBusy(true);
    try {
      const res = await fetch("/connect/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", [CONSOLE_HEADER]: "1" },
        body: new URLSearchParams(Object.entries(fields).filter(([, v]) => v)),
      });
      const body: unknown = await res.json().catch(() => null);
      setOutcome({ status: res.status, body, curl: tokenRequestCurl(window.location.origin, fields) });
      const token =
        res.ok && body && typeof body === "object" && "access_token" in body ? String(body.access_token) : null;
      onToken(token ? { accessToken: token, claims: decodeJwt(token) } : null);
    } finally {
      setBusy(false);
    }
  }
  const claims =
    outcome &&
    outcome.status === 200 &&
    outcome.body &&
    typeof outcome.body === "object" &&
    "access_token" in outcome.body
      ? decodeJwt(String(outcome.body.access_token))
      : null;
  const shownBody =
    outcome?.body && typeof outcome.body === "object" && "access_token" in outcome.body
      ? { ...outcome.body, access_token: `${String(outcome.body.access_token).slice(0, 24)}… (decoded below)` }
      : outcome?.body;

  return (
    <div className="grid gap-3">
      <div className="grid grid-cols-2 gap-3 xl:grid-cols-4">
        <Field id="t-client" label="Client">
          <Select id="t-client" value={clientId} onChange={(e) => setClientId(e.target.value)}>
            {clients.map((c) => (
              <option key={c.clientId} value={c.clientId}>
                {c.clientId}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="t-secret"
          label="Client secret"
          hint={SEED_SECRETS[clientId] ? "the seed's documented secret" : "shown once when the client was created"}
        >
          <Input
            id="t-secret"
            type="password"
            autoComplete="off"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        </Field>
        <Field id="t-agency" label="Agency (agency_context)">
          <Select id="t-agency" value={agency} onChange={(e) => setAgency(e.target.value)}>
            <option value="">(none)</option>
            {agencies.map((a) => (
              <option key={a.id} value={a.id}>
                {a.displayName}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="t-user" label="User (username)" hint="needed for incident operations">
          <Select id="t-user" value={username} onChange={(e) => setUsername(e.target.value)}>
            <option value="">(no user context)</option>
            {users.map((u) => (
              <option key={u.id} value={u.username}>
                {u.username}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field id="t-scope" label="Scope (space-separated)">
        <Input id="t-scope" value={scope} onChange={(e) => setScope(e.target.value)} className="font-mono text-xs" />
      </Field>
      <div>
        <Button onClick={() => void requestToken()} disabled={busy || !clientId}>
          Get token
        </Button>
      </div>
      {outcome && (
        <div className="grid gap-3 lg:grid-cols-2">
          <div className="grid content-start gap-2">
            <p className="text-xs font-semibold text-slate-700">Request (secret masked)</p>
            <CodeBlock code={outcome.curl} label="Copy as curl" />
          </div>
          <div className="grid content-start gap-2" data-testid="token-response">
            <p className="text-xs font-semibold text-slate-700">Response {outcome.status}</p>
            {outcome.status !== 200 && (
              <Alert tone="danger" title={`HTTP ${outcome.status}`}>
                The identity server refused the request.
              </Alert>
            )}
            <JsonView value={shownBody ?? null} />
          </div>
          {claims && (
            <div className="grid gap-2 lg:col-span-2" data-testid="token-claims">
              <p className="text-xs font-semibold text-slate-700">Decoded claims</p>
              <JsonView value={claims} expandDepth={2} maxHeight="18rem" />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
