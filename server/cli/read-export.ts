// `workbench deliveries replay FILE`: the requests of a delivery export, read and
// checked before anything is sent, with one line that says what is wrong.
import { readFile, stat } from "node:fs/promises";
import {
  DELIVERY_EXPORT_FORMAT,
  DELIVERY_EXPORT_VERSION,
  MAX_REPLAYED_REQUESTS,
} from "../webhooks/admin/delivery-export-format.ts";
import type { TReplayDeliveriesInput } from "../webhooks/admin/replay-deliveries.ts";
import { CliUsageError } from "./parse-options.ts";

/** Larger than any export the workbench writes (2,000 deliveries with their attempts). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** Type only: the CLI does not load the server module. */
export type ReplayedRequest = TReplayDeliveriesInput["deliveries"][number];

export async function readExportRequests(file: string): Promise<ReplayedRequest[]> {
  let text: string;
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES)
      throw new CliUsageError(`${file}: larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB, not a delivery export`);
    text = await readFile(file, "utf8");
  } catch (e) {
    if (e instanceof CliUsageError) throw e;
    throw new CliUsageError(`${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliUsageError(`${file}: not JSON; give a file written by \`workbench deliveries export\``);
  }
  const exported = parsed as { format?: unknown; version?: unknown; deliveries?: unknown };
  if (exported?.format !== DELIVERY_EXPORT_FORMAT)
    throw new CliUsageError(`${file}: not a delivery export (its "format" is not ${DELIVERY_EXPORT_FORMAT})`);
  if (exported.version !== DELIVERY_EXPORT_VERSION)
    throw new CliUsageError(
      `${file}: export version ${String(exported.version)}; this workbench reads version ${DELIVERY_EXPORT_VERSION}`,
    );
  if (!Array.isArray(exported.deliveries) || exported.deliveries.length === 0)
    throw new CliUsageError(`${file}: holds no deliveries`);
  if (exported.deliveries.length > MAX_REPLAYED_REQUESTS)
    throw new CliUsageError(
      `${file}: ${exported.deliveries.length} deliveries; a replay sends at most ${MAX_REPLAYED_REQUESTS} (export one integration, or split the file)`,
    );
  return exported.deliveries.map((d: { method?: unknown; path?: unknown; body?: unknown }, i: number) => {
    if (typeof d?.method !== "string" || typeof d.path !== "string")
      throw new CliUsageError(`${file}: delivery ${i + 1} has no method and path`);
    return {
      method: d.method as ReplayedRequest["method"],
      path: d.path,
      body: (d.body ?? null) as ReplayedRequest["body"],
    };
  });
}
