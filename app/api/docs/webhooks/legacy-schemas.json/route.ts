// The legacy webhook contracts v1 and v2 (JSON Schema + decisions) for integrators (docs/webhooks.md).
import { buildLegacySchemasDocument } from "@/server/webhook-contracts/v2/build-legacy-schemas";

export const dynamic = "force-static";

export function GET() {
  return Response.json(buildLegacySchemasDocument());
}
