"use client";
// Agencies (with their relations) and users (with the clients they may act through), as the
// seed and later administration left them. Read-only for now: creating or editing agencies and
// users is not built (the seed reset restores the documented set, docs/seed-data.md).
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/app/_components/ui/badge";
import { SectionCard } from "@/app/_components/ui/card";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { Table, TBody, TD, TH, THead, TR } from "@/app/_components/ui/table";
import { useTRPC } from "@/app/_trpc/react";

export function DirectoryAdmin() {
  const trpc = useTRPC();
  const directory = useQuery(trpc.directory.list.queryOptions());
  if (!directory.data) return <SkeletonRows rows={4} />;
  const { agencies, users } = directory.data;
  const name = (id: string) => agencies.find((a) => a.id === id)?.displayName ?? id;
  return (
    <>
      <SectionCard id="h-admin-agencies" title={`Agencies (${agencies.length})`} bodyClassName="p-0">
        <Table>
          <THead>
            <TR>
              <TH>Name</TH>
              <TH>Type</TH>
              <TH>Id</TH>
              <TH>Related</TH>
            </TR>
          </THead>
          <TBody>
            {agencies.map((a) => (
              <TR key={a.id}>
                <TD>{a.displayName}</TD>
                <TD>{a.type}</TD>
                <TD className="font-mono text-xs">{a.id}</TD>
                <TD>{a.relatedAgencyIds.map(name).join(", ") || "—"}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </SectionCard>
      <SectionCard id="h-admin-users" title={`Users (${users.length})`} bodyClassName="p-0">
        <Table>
          <THead>
            <TR>
              <TH>Username</TH>
              <TH>Name</TH>
              <TH>Agency</TH>
              <TH>Role</TH>
              <TH>Sign-in</TH>
              <TH>Clients</TH>
            </TR>
          </THead>
          <TBody>
            {users.map((u) => (
              <TR key={u.id}>
                <TD className="font-mono text-xs">{u.username}</TD>
                <TD>{u.name}</TD>
                <TD>{name(u.agencyId)}</TD>
                <TD>{u.role ?? "—"}</TD>
                <TD>{u.canSignIn ? <Badge tone="success">allowed</Badge> : <Badge tone="danger">blocked</Badge>}</TD>
                <TD className="font-mono text-xs">{u.clientIds.join(", ") || "—"}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </SectionCard>
    </>
  );
}
