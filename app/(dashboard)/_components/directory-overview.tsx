"use client";
import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { Card } from "@/app/_components/ui/card";
import { KeyValueList } from "@/app/_components/ui/key-value";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { Table, TBody, TD, TH, THead, TR } from "@/app/_components/ui/table";
import { useTRPC } from "@/app/_trpc/react";
import { ListenerNote } from "./listener-note";

/** A titled region (Playwright and screen readers find it by name) holding one table. */
function Section({ title, count, children }: { title: string; count: number; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-xs" aria-labelledby={`h-${title}`}>
      <h2 id={`h-${title}`} className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        {title} <span className="font-normal text-slate-500">({count})</span>
      </h2>
      {children}
    </section>
  );
}

const mono = "font-mono text-xs";

export function DirectoryOverview() {
  const trpc = useTRPC();
  const directory = useQuery(trpc.directory.list.queryOptions());
  const info = useQuery(trpc.system.info.queryOptions());
  if (directory.isError)
    return (
      <Alert tone="danger" title="Could not load the directory">
        {directory.error.message}
      </Alert>
    );
  if (!directory.data) return <SkeletonRows rows={6} label="Loading the directory…" />;
  const { agencies, clients, users, integrations } = directory.data;
  const agencyName = new Map(agencies.map((a) => [a.id, a.displayName]));

  return (
    <div className="grid gap-6">
      {info.data && (
        <Card className="p-4">
          <KeyValueList
            columns={3}
            className="lg:grid-cols-4"
            items={[
              { label: "{auth_url}", value: info.data.authUrl, mono: true },
              { label: "{base_url}", value: info.data.baseUrl, mono: true },
              { label: "{portal_url}", value: info.data.portalUrl, mono: true },
              {
                label: "Database",
                value: info.data.database === "embedded" ? "embedded PostgreSQL" : "external PostgreSQL",
              },
            ]}
          />
        </Card>
      )}

      <div className="grid gap-6 2xl:grid-cols-2">
        <Section title="Agencies" count={agencies.length}>
          <Table>
            <THead>
              <tr>
                <TH>Name</TH>
                <TH>Type</TH>
                <TH>Id</TH>
                <TH>Related agencies</TH>
              </tr>
            </THead>
            <TBody>
              {agencies.map((a) => (
                <TR key={a.id}>
                  <TD className="font-medium">{a.displayName}</TD>
                  <TD>
                    <Badge>{a.type}</Badge>
                  </TD>
                  <TD className={mono}>{a.id}</TD>
                  <TD>{a.relatedAgencyIds.map((id) => agencyName.get(id)).join(", ") || "—"}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Section>

        <Section title="Clients" count={clients.length}>
          <Table>
            <THead>
              <tr>
                <TH>client_id</TH>
                <TH>Grants</TH>
                <TH>Scopes</TH>
                <TH>Agencies</TH>
              </tr>
            </THead>
            <TBody>
              {clients.map((c) => (
                <TR key={c.clientId}>
                  <TD className={mono}>
                    {c.clientId}
                    {c.isPublic && <Badge className="ml-2 font-sans">public</Badge>}
                  </TD>
                  <TD>{c.grantTypes.join(", ")}</TD>
                  <TD className={mono}>{c.scopes.join(" ")}</TD>
                  <TD>{c.agencyIds.map((id) => agencyName.get(id)).join(", ") || "—"}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Section>

        <Section title="Users" count={users.length}>
          <Table>
            <THead>
              <tr>
                <TH>Username</TH>
                <TH>Name</TH>
                <TH>Agency</TH>
                <TH>Role</TH>
                <TH>Sign-in</TH>
              </tr>
            </THead>
            <TBody>
              {users.map((u) => (
                <TR key={u.id}>
                  <TD className={mono}>{u.username}</TD>
                  <TD>{u.name}</TD>
                  <TD>{agencyName.get(u.agencyId)}</TD>
                  <TD>{u.role ?? "—"}</TD>
                  <TD>
                    {u.canSignIn ? <Badge tone="success">allowed</Badge> : <Badge tone="danger">not allowed</Badge>}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Section>

        <Section title="Integrations" count={integrations.length}>
          <Table>
            <THead>
              <tr>
                <TH>Key</TH>
                <TH>Agency</TH>
                <TH>Receiver</TH>
                <TH>Declared contract</TH>
                <TH>Transport</TH>
              </tr>
            </THead>
            <TBody>
              {integrations.map((i) => (
                <TR key={i.key}>
                  <TD className={mono}>{i.key}</TD>
                  <TD>{agencyName.get(i.agencyId)}</TD>
                  <TD className={mono}>
                    <span className={i.listener ? "text-slate-500" : undefined}>{i.receiverUrl}</span>
                    {i.listener && <ListenerNote integration={i.key} listener={i.listener} />}
                  </TD>
                  <TD>
                    {i.declaredVersion ? (
                      <Badge tone={i.discoveryStatus === "active" ? "info" : "danger"}>
                        v{i.declaredVersion}
                        {i.discoveryStatus === "active" ? "" : ` · ${i.discoveryStatus}`}
                      </Badge>
                    ) : (
                      <Badge tone="neutral">not declared yet</Badge>
                    )}
                  </TD>
                  <TD>{i.insecureDev ? <Badge tone="warning">insecure-dev (http allowed)</Badge> : "HTTPS only"}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Section>
      </div>
    </div>
  );
}
