// What a delivery export holds, as its selection and its file name: shared by the
// server, the CLI and the inspector's download (no dependency: the browser loads it).
export type TExportDeliveriesInput = { requestId: string } | { incidentId: string; integration?: string };

/** A file name that says what the export holds, for the inspector's download and the CLI's default. */
export function exportFileName(input: TExportDeliveriesInput): string {
  return "requestId" in input
    ? `delivery-${input.requestId}.json`
    : `deliveries-${input.incidentId}${input.integration ? `-${input.integration}` : ""}.json`;
}
