"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { SectionCard } from "@/app/_components/ui/card";
import { ClientForm, Input, Select } from "@/app/_components/ui/form";
import { useTRPC } from "@/app/_trpc/react";
import { INCIDENT_ORIGINS } from "@/server/simulator/simulator.schema";
import { calls } from "../../_components/may-call";

const ORIGIN_LABEL: Record<(typeof INCIDENT_ORIGINS)[number], string> = {
  MobileApp: "Caller's mobile app (Real)",
  WebApp: "Web app (Real)",
  Aml: "AML from the handset (Real)",
  GoogleEls: "Google ELS (Real)",
  ConnectorAdmin: "Connector administration screen (Test)",
  Demo: "Demo (training)",
};

export function RaiseIncidentForm({ onRaised }: { onRaised: (incidentId: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const directory = useQuery(trpc.directory.list.queryOptions());
  const [form, setForm] = useState({
    origin: "MobileApp" as (typeof INCIDENT_ORIGINS)[number],
    agencyId: "",
    latitude: "59.962",
    longitude: "10.768",
    accuracy: "25",
    phone: "+4795001234",
  });
  const raise = useMutation(
    trpc.simulator.raise.mutationOptions({
      onSuccess: (r) => {
        void queryClient.invalidateQueries({ queryKey: trpc.incidents.list.queryKey() });
        onRaised(r.incidentId);
      },
    }),
  );
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const submit = () =>
    raise.mutate({
      origin: form.origin,
      agencyId: form.agencyId || undefined,
      phoneNumber: form.phone || null,
      location:
        form.latitude && form.longitude
          ? { latitude: Number(form.latitude), longitude: Number(form.longitude), accuracy: Number(form.accuracy || 0) }
          : undefined,
    });
  const cls = "flex flex-col gap-1 text-xs font-medium text-slate-700";
  return (
    <SectionCard id="sim-raise" title="Raise an incident">
      <ClientForm
        className="grid grid-cols-2 gap-3 sm:grid-cols-3"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className={`${cls} col-span-2`}>
          Raised from
          <Select value={form.origin} onChange={set("origin")} data-testid="raise-origin">
            {INCIDENT_ORIGINS.map((o) => (
              <option key={o} value={o}>
                {ORIGIN_LABEL[o]}
              </option>
            ))}
          </Select>
        </label>
        <label className={cls}>
          Owner agency
          <Select value={form.agencyId} onChange={set("agencyId")}>
            <option value="">By jurisdiction</option>
            {(directory.data?.agencies ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.displayName}
              </option>
            ))}
          </Select>
        </label>
        <label className={cls}>
          Latitude
          <Input inputMode="decimal" value={form.latitude} onChange={set("latitude")} />
        </label>
        <label className={cls}>
          Longitude
          <Input inputMode="decimal" value={form.longitude} onChange={set("longitude")} />
        </label>
        <label className={cls}>
          Accuracy (m)
          <Input inputMode="decimal" value={form.accuracy} onChange={set("accuracy")} />
        </label>
        <label className={`${cls} col-span-2`}>
          Caller phone (E.164, optional)
          <Input value={form.phone} onChange={set("phone")} />
        </label>
        <div className="flex items-end">
          <Button {...calls("simulator.raise")} type="submit" disabled={raise.isPending}>
            Raise incident
          </Button>
        </div>
      </ClientForm>
      {raise.error && (
        <Alert tone="danger" className="mt-3">
          {raise.error.message}
        </Alert>
      )}
      {raise.data && (
        <p role="status" className="mt-3 text-sm text-slate-700">
          {raise.data.purpose} incident raised, owned by {raise.data.owner}.
        </p>
      )}
    </SectionCard>
  );
}
