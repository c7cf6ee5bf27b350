// The legacy webhook contracts v1 and v2 (JSON Schema + decisions) for integrators (docs/webhooks.md).
// Who may call: as the dashboard (refuse-without-caller.ts).
import { buildLegacySchemasDocument } from "@/server/webhook-contracts/v2/build-legacy-schemas";
import { refuseWithoutCaller } from "../../../refuse-without-caller";

export const dynamic = "force-dynamic";

let document: ReturnType<typeof buildLegacySchemasDocument> | undefined;

export async function GET(request: Request) {
  const refused = await refuseWithoutCaller(request);
  if (refused) return refused;
  return Response.json((document ??= buildLegacySchemasDocument()), { headers: { "cache-control": "no-store" } });
}
