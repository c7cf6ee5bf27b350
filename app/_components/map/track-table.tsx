import type { TLocation, TLocationSource } from "@/server/incidents/snapshot.schema";
import { Table, TBody, TD, TH, THead, TR } from "../ui/table";
import { SOURCE_COLOURS, SOURCE_LABELS } from "./select-tracks";

/** The drawn locations as text: exact coordinates for dispatchers, and the map's equivalent for screen readers. */
export function TrackTable({ tracks }: { tracks: { source: TLocationSource; track: TLocation[] }[] }) {
  const rows = tracks.flatMap((t) => t.track).sort((a, b) => Date.parse(b.capturedAtUtc) - Date.parse(a.capturedAtUtc));
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer text-xs font-medium text-slate-700">
        Locations as a table ({rows.length})
      </summary>
      <Table className="mt-2">
        <THead>
          <tr>
            <TH>Captured (UTC)</TH>
            <TH>Source</TH>
            <TH>Type</TH>
            <TH>Latitude, longitude</TH>
            <TH>Accuracy</TH>
            <TH>Received (UTC)</TH>
          </tr>
        </THead>
        <TBody>
          {rows.map((l, i) => (
            <TR key={i}>
              <TD className="font-mono text-xs">{l.capturedAtUtc.slice(11, 19)}</TD>
              <TD>
                <span
                  aria-hidden
                  className="mr-1.5 inline-block h-2 w-2 rounded-full"
                  style={{ background: SOURCE_COLOURS[l.source] }}
                />
                {SOURCE_LABELS[l.source]}
              </TD>
              <TD>{l.type}</TD>
              <TD className="font-mono text-xs">
                {l.latitude.toFixed(6)}, {l.longitude.toFixed(6)}
              </TD>
              <TD>{l.type === "Measured" ? `±${l.accuracy} m` : "—"}</TD>
              <TD className="font-mono text-xs">{l.receivedAtUtc.slice(11, 19)}</TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </details>
  );
}
