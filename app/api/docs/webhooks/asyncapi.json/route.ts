// The webhook contract v3 (AsyncAPI 3 + JSON Schemas) for integrators.
// Who may call: as the dashboard (refuse-without-caller.ts).
import { getRuntime } from "@/server/runtime";
import { buildAsyncApiDocument } from "@/server/webhook-contracts/v3/build-asyncapi";
import { refuseWithoutCaller } from "../../../refuse-without-caller";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const refused = await refuseWithoutCaller(request);
  if (refused) return refused;
  return Response.json(buildAsyncApiDocument({ publicUrl: getRuntime().env.PUBLIC_URL }), {
    headers: { "cache-control": "no-store" },
  });
}
