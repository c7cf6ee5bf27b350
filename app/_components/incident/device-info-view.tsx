import { Signal, Wifi } from "lucide-react";
import type { TCaller, TTrack } from "@/server/incidents/snapshot.schema";
import { Badge } from "../ui/badge";
import { KeyValueList } from "../ui/key-value";
import { BatteryGauge } from "./battery-gauge";
import { dataSourcesUsed } from "./data-sources-used";
import { CONNECTION_LABELS } from "./labels";

const yesNo = (v: boolean | null) => (v === null ? null : v ? "yes" : "no");

export function DeviceInfoView({ device }: { device: TCaller["deviceInfo"] }) {
  if (!device) return <p className="text-sm text-slate-500">Device not known.</p>;
  const conn = device.internetConnectionType;
  const detections = [
    device.automaticDetections.crashDetected && "Crash detected",
    device.automaticDetections.fallDetected && "Fall detected",
  ].filter(Boolean) as string[];
  return (
    <div className="grid gap-3">
      {detections.length > 0 && (
        <div className="flex gap-1.5">
          {detections.map((d) => (
            <Badge key={d} tone="danger">
              {d}
            </Badge>
          ))}
        </div>
      )}
      <KeyValueList
        columns={2}
        items={[
          { label: "Battery", value: <BatteryGauge level={device.batteryLevel} /> },
          {
            label: "Connection",
            value: conn && (
              <span className="inline-flex items-center gap-1.5">
                {conn === "Wifi" ? (
                  <Wifi className="h-4 w-4" aria-hidden />
                ) : (
                  <Signal className="h-4 w-4" aria-hidden />
                )}
                {CONNECTION_LABELS[conn] ?? conn}
              </span>
            ),
          },
          {
            label: "Operating system",
            value:
              device.operatingSystem &&
              `${device.operatingSystem}${device.operatingSystemVersion ? ` ${device.operatingSystemVersion}` : ""}`,
          },
          { label: "Live video support", value: yesNo(device.liveVideoSupport) },
        ]}
      />
    </div>
  );
}

/**
 * Which channels the caller's data came through: what a source declared when it linked (spec:
 * caller.dataSources) and which sources sent positions (caller.tracks), so a source is never "not
 * used" beside its own fixes.
 */
export function DataSourcesView({ sources, tracks }: { sources: TCaller["dataSources"]; tracks: TTrack[] }) {
  return (
    <ul className="grid gap-1 text-sm" data-testid="data-sources">
      {dataSourcesUsed(sources, tracks).map(({ name, used, detail }) => (
        <li key={name} className="flex items-baseline justify-between gap-3">
          <span className={used ? "font-medium" : "text-slate-500"}>{name}</span>
          <span className={used ? "text-right text-slate-700" : "text-slate-500"}>
            {used ? (detail ?? "used") : "not used"}
          </span>
        </li>
      ))}
    </ul>
  );
}
