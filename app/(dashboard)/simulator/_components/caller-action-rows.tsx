"use client";
// The caller-side action forms, one fieldset per subject: where the caller is, their device and data
// source, who they are, and chat and video. Each button runs one simulator action.
import { useState, type ReactNode } from "react";
import { Button } from "@/app/_components/ui/button";
import { Input, Select } from "@/app/_components/ui/form";
import { INTERNET_CONNECTION_TYPES } from "@/server/incidents/snapshot.schema";
import { MEASURED_SOURCES, type TSimulatorAction } from "@/server/simulator/simulator.schema";
import { readDeviceInfo, readFix } from "./read-caller-action";

type RowProps = { busy: boolean; run: (action: TSimulatorAction) => void };

const cls = "flex flex-col gap-1 text-xs font-medium text-slate-700";
const Row = ({ title, children }: { title: string; children: ReactNode }) => (
  <fieldset className="rounded-md border border-slate-200 p-3">
    <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-600">{title}</legend>
    <div className="flex flex-wrap items-end gap-2">{children}</div>
  </fieldset>
);

export function LocationActions({ busy, run }: RowProps) {
  const [fix, setFix] = useState({
    source: "MobileApp" as (typeof MEASURED_SOURCES)[number],
    latitude: "59.9625",
    longitude: "10.7685",
    accuracy: "8",
    altitude: "",
  });
  return (
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
        <Input className="w-28" value={fix.latitude} onChange={(e) => setFix({ ...fix, latitude: e.target.value })} />
      </label>
      <label className={cls}>
        Longitude
        <Input className="w-28" value={fix.longitude} onChange={(e) => setFix({ ...fix, longitude: e.target.value })} />
      </label>
      <label className={cls}>
        Accuracy (m)
        <Input className="w-20" value={fix.accuracy} onChange={(e) => setFix({ ...fix, accuracy: e.target.value })} />
      </label>
      <label className={cls}>
        Altitude (m)
        <Input className="w-20" value={fix.altitude} onChange={(e) => setFix({ ...fix, altitude: e.target.value })} />
      </label>
      <Button disabled={busy} onClick={() => run({ action: "location", source: fix.source, fix: readFix(fix) })}>
        Add location
      </Button>
      <Button
        variant="secondary"
        disabled={busy}
        onClick={() => run({ action: "replaceTrack", source: fix.source, fix: readFix(fix) })}
        title="Discard this source's coarse fixes for this precise one"
      >
        Replace track
      </Button>
      <Button
        variant="secondary"
        disabled={busy}
        onClick={() => run({ action: "openLocationSms", fix: readFix(fix) })}
        title="The caller opens the newest locate SMS link (MobileAppSms)"
      >
        Open SMS link
      </Button>
    </Row>
  );
}

export function DeviceActions({ busy, run }: RowProps) {
  const [device, setDevice] = useState({ battery: "35", connection: "Cellular4G" });
  const [source, setSource] = useState<"mobileApp" | "webApp" | "googleEls" | "appleEed">("mobileApp");
  return (
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
      <Button disabled={busy} onClick={() => run(readDeviceInfo(device))}>
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
  );
}

export function CallerDetailActions({ busy, run }: RowProps) {
  const [name, setName] = useState("Ola Nordmann");
  const [phone, setPhone] = useState("+4795007788");
  return (
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
  );
}

export function ChatAndVideoActions({ busy, run }: RowProps) {
  const [message, setMessage] = useState("Please hurry, he is not breathing.");
  return (
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
  );
}
