"use client";
// The caller-side actions as small forms. Each submits one simulator.act; the
// result line says which change record it produced (or that none was).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { SectionCard } from "@/app/_components/ui/card";
import { Input, Select } from "@/app/_components/ui/form";
import { useTRPC } from "@/app/_trpc/react";
import { INTERNET_CONNECTION_TYPES } from "@/server/incidents/snapshot.schema";
import { MEASURED_SOURCES, type TSimulatorAction } from "@/server/simulator/simulator.schema";

const cls = "flex flex-col gap-1 text-xs font-medium text-slate-700";
const Row = ({ title, children }: { title: string; children: ReactNode }) => (
  <fieldset className="rounded-md border border-slate-200 p-3">
    <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-600">{title}</legend>
    <div className="flex flex-wrap items-end gap-2">{children}</div>
  </fieldset>
);

export function ActionForms({ incidentId }: { incidentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const act = useMutation(
    trpc.simulator.act.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.incidents.list.queryKey() }),
    }),
  );
  const run = (action: TSimulatorAction) => act.mutate({ incidentId, action });
  const [fix, setFix] = useState({
    source: "MobileApp" as (typeof MEASURED_SOURCES)[number],
    latitude: "59.9625",
    longitude: "10.7685",
    accuracy: "8",
    altitude: "",
  });
  const [device, setDevice] = useState({ battery: "35", connection: "Cellular4G" });
  const [name, setName] = useState("Ola Nordmann");
  const [phone, setPhone] = useState("+4795007788");
  const [source, setSource] = useState<"mobileApp" | "webApp" | "googleEls" | "appleEed">("mobileApp");
  const [message, setMessage] = useState("Please hurry, he is not breathing.");
  const fixValue = () => ({
    latitude: Number(fix.latitude),
    longitude: Number(fix.longitude),
    accuracy: Number(fix.accuracy),
    altitude: fix.altitude === "" ? null : Number(fix.altitude),
  });
  const busy = act.isPending;
  return (
    <SectionCard id="sim-actions" title="Caller actions">
      <div className="space-y-3">
        <Row title="Location">
          <label className={cls}>
            Source
            <Select
              value={fix.source}
              onChange={(e) => setFix({ ...fix, source: e.target.value as typeof fix.source })}
              data-testid="action-source"
            >
              {MEASURED_SOURCES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </Select>
          </label>
          <label className={cls}>
            Latitude
            <Input
              className="w-28"
              value={fix.latitude}
              onChange={(e) => setFix({ ...fix, latitude: e.target.value })}
            />
          </label>
          <label className={cls}>
            Longitude
            <Input
              className="w-28"
              value={fix.longitude}
              onChange={(e) => setFix({ ...fix, longitude: e.target.value })}
            />
          </label>
          <label className={cls}>
            Accuracy (m)
            <Input
              className="w-20"
              value={fix.accuracy}
              onChange={(e) => setFix({ ...fix, accuracy: e.target.value })}
            />
          </label>
          <label className={cls}>
            Altitude (m)
            <Input
              className="w-20"
              value={fix.altitude}
              onChange={(e) => setFix({ ...fix, altitude: e.target.value })}
            />
          </label>
          <Button disabled={busy} onClick={() => run({ action: "location", source: fix.source, fix: fixValue() })}>
            Add location
          </Button>
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() => run({ action: "replaceTrack", source: fix.source, fix: fixValue() })}
            title="Discard this source's coarse fixes for this precise one"
          >
            Replace track
          </Button>
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() => run({ action: "openLocationSms", fix: fixValue() })}
            title="The caller opens the newest locate SMS link (MobileAppSms)"
          >
            Open SMS link
          </Button>
        </Row>
        <Row title="Device">
          <label className={cls}>
            Battery (%)
            <Input
              className="w-20"
              type="number"
              min={0}
              max={100}
              value={device.battery}
              onChange={(e) => setDevice({ ...device, battery: e.target.value })}
            />
          </label>
          <label className={cls}>
            Connection
            <Select value={device.connection} onChange={(e) => setDevice({ ...device, connection: e.target.value })}>
              {INTERNET_CONNECTION_TYPES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </Select>
          </label>
          <Button
            disabled={busy}
            onClick={() =>
              run({
                action: "deviceInfo",
                batteryLevel: Number(device.battery),
                internetConnectionType: device.connection as (typeof INTERNET_CONNECTION_TYPES)[number],
              })
            }
          >
            Set device info
          </Button>
          <label className={cls}>
            Data source
            <Select value={source} onChange={(e) => setSource(e.target.value as typeof source)}>
              <option value="mobileApp">Mobile app</option>
              <option value="webApp">Web app</option>
              <option value="googleEls">Google ELS</option>
              <option value="appleEed">Apple EED</option>
            </Select>
          </label>
          <Button variant="secondary" disabled={busy} onClick={() => run({ action: "linkDataSource", source })}>
            Link
          </Button>
        </Row>
        <Row title="Caller">
          <label className={cls}>
            Full name
            <Input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <Button disabled={busy || !name} onClick={() => run({ action: "fullName", fullName: name })}>
            Set name
          </Button>
          <label className={cls}>
            Phone number
            <Input className="w-36" value={phone} onChange={(e) => setPhone(e.target.value)} />
          </label>
          <Button disabled={busy} onClick={() => run({ action: "phoneNumber", phoneNumber: phone })}>
            Number available
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => run({ action: "medicData" })}>
            Share medical data
          </Button>
        </Row>
        <Row title="Chat and video">
          <Button disabled={busy} onClick={() => run({ action: "activateChat" })}>
            Activate chat
          </Button>
          <label className={`${cls} min-w-56 flex-1`}>
            Caller message
            <Input value={message} onChange={(e) => setMessage(e.target.value)} />
          </label>
          <Button
            variant="secondary"
            disabled={busy || !message}
            onClick={() => run({ action: "chatMessage", text: message })}
          >
            Send as caller
          </Button>
          <Button disabled={busy} onClick={() => run({ action: "activateLiveVideo" })}>
            Start live video
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => run({ action: "endLiveVideo" })}>
            End live video
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => run({ action: "close" })}>
            Close incident
          </Button>
        </Row>
      </div>
      <div aria-live="polite" className="mt-3 min-h-6 text-sm" data-testid="action-result">
        {act.error ? (
          <Alert tone="danger">{act.error.message}</Alert>
        ) : act.data ? (
          <span>
            {act.data.action}:{" "}
            {act.data.changes.length ? (
              <>
                recorded <code>{act.data.changes.join(", ")}</code>
                {act.data.version ? ` (version ${act.data.version})` : ""}
              </>
            ) : (
              "no change record (nothing a receiver is sent)"
            )}
          </span>
        ) : null}
      </div>
    </SectionCard>
  );
}
