// The webhook contract v3 (AsyncAPI 3 + JSON Schemas) for integrators.
import { getRuntime } from "@/server/runtime";
import { buildAsyncApiDocument } from "@/server/webhook-contracts/v3/build-asyncapi";

export const dynamic = "force-dynamic";

export function GET() {
  return Response.json(buildAsyncApiDocument({ publicUrl: getRuntime().env.PUBLIC_URL }));
}
