"use client";
// Where each agency's webhooks go: receiver URL (absolute, or a path on this workbench),
// insecure-dev (plain http / self-signed allowed), and what GET /about declared — Save
// rediscovers at once, Rediscover asks again without changing anything.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { SectionCard } from "@/app/_components/ui/card";
import { ClientForm, Input } from "@/app/_components/ui/form";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { useTRPC } from "@/app/_trpc/react";
import { ListenerNote, type ListenerView } from "../_components/listener-note";
import { calls, useMayCall } from "../_components/may-call";

type Integration = {
  key: string;
  agency: string;
  receiverUrl: string;
  resolvedUrl: string;
  insecureDev: boolean;
  listener: ListenerView | null;
  discovery: {
    status: string;
    version: string | null;
    flags: string[];
    credential: string | null;
    error: string | null;
    checkedAt: string;
  } | null;
};

export function IntegrationsAdmin() {
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.integrations.list.queryOptions(), refetchInterval: 5_000 });
  return (
    <SectionCard id="h-admin-integrations" title="Integrations" bodyClassName="grid gap-3">
      {list.isError && (
        <Alert tone="danger" title="Could not load integrations">
          {list.error.message}
        </Alert>
      )}
      {!list.data ? (
        <SkeletonRows rows={3} />
      ) : (
        list.data.map((i) => <IntegrationRow key={i.key} integration={i as Integration} />)
      )}
    </SectionCard>
  );
}

function IntegrationRow({ integration: i }: { integration: Integration }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.integrations.list.queryKey() });
  const set = useMutation(trpc.integrations.set.mutationOptions({ onSuccess }));
  const rediscover = useMutation(trpc.integrations.rediscover.mutationOptions({ onSuccess }));
  // A viewer reads where the webhooks go; changing it is an admin's (the inputs stay, read-only).
  const maySet = useMayCall("integrations.set");
  const mayRediscover = useMayCall("integrations.rediscover");
  const mayChange = maySet && mayRediscover;
  const [url, setUrl] = useState(i.receiverUrl);
  const [insecure, setInsecure] = useState(i.insecureDev);
  const d = i.discovery;
  const error = set.error?.message ?? rediscover.error?.message;
  return (
    <ClientForm
      className="grid gap-2 rounded-md border border-slate-200 p-3"
      data-testid={`integration-${i.key}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (mayChange) set.mutate({ key: i.key, url, insecureDev: insecure });
      }}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{i.key}</span>
        <span className="text-sm text-slate-600">{i.agency}</span>
        {d ? (
          <Badge tone={d.status === "active" ? "success" : "danger"}>
            {d.status}
            {d.version ? ` · v${d.version}` : ""}
          </Badge>
        ) : (
          <Badge tone="neutral">not discovered</Badge>
        )}
        {d?.credential && <span className="text-xs text-slate-600">/about credential: {d.credential}</span>}
      </div>
      <div className="grid items-end gap-2 md:grid-cols-[1fr_auto_auto_auto]">
        <div>
          <label htmlFor={`url-${i.key}`} className="mb-1 block text-xs font-medium text-slate-700">
            Receiver URL
          </label>
          <Input
            id={`url-${i.key}`}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            readOnly={!mayChange}
            className="font-mono text-xs read-only:bg-slate-50 read-only:text-slate-700"
          />
        </div>
        <label className="flex h-9 items-center gap-1.5 text-sm">
          <input
            type="checkbox"
            checked={insecure}
            disabled={!mayChange}
            onChange={(e) => setInsecure(e.target.checked)}
          />
          insecure-dev
        </label>
        {mayChange && (
          <>
            <Button {...calls("integrations.set")} type="submit" disabled={set.isPending}>
              Save
            </Button>
            <Button
              {...calls("integrations.rediscover")}
              variant="secondary"
              disabled={rediscover.isPending}
              onClick={() => rediscover.mutate({ key: i.key })}
            >
              Rediscover
            </Button>
          </>
        )}
      </div>
      {i.listener && <ListenerNote integration={i.key} listener={i.listener} />}
      <p className="font-mono text-xs text-slate-600">
        {i.listener ? "when detached, goes" : "resolves"} to {i.resolvedUrl}
        {d ? ` · checked ${d.checkedAt.slice(11, 19)}` : ""}
      </p>
      {d?.flags.length ? <p className="font-mono text-xs text-slate-700">declares: {d.flags.join(", ")}</p> : null}
      {d?.error && <Alert tone="warning">{d.error}</Alert>}
      {error && (
        <Alert tone="danger" title="Refused">
          {error}
        </Alert>
      )}
    </ClientForm>
  );
}
