// The shareable HTML report of one conformance run (self-contained: inline CSS,
// no scripts). `?download=1` saves it as a file instead of opening it.
// Who may call: as conformance.get (refuse-without-caller.ts): the gate is not its only defence.
import { z } from "zod";
import { getRuntime } from "@/server/runtime";
import { getConformanceRun } from "@/server/conformance/list-conformance-runs";
import { renderReportHtml } from "@/server/conformance/render-report-html";
import { isAppError } from "@/server/platform/errors";
import { refuseWithoutCaller } from "../../../../refuse-without-caller";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }) {
  const refused = await refuseWithoutCaller(request);
  if (refused) return refused;
  const { runId } = await params;
  if (!z.uuid().safeParse(runId).success)
    return new Response("Not a run id.", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  try {
    const { db, clock } = getRuntime();
    const run = await getConformanceRun({ db, clock, id: runId });
    const headers: Record<string, string> = {
      "content-type": "text/html; charset=utf-8",
      // The report is static: nothing in it may run or load.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      // Authenticated data: never kept by a browser or a proxy (SECURITY.md, "Caching").
      "cache-control": "no-store",
    };
    if (new URL(request.url).searchParams.get("download"))
      headers["content-disposition"] = `attachment; filename="conformance-${run.id}.html"`;
    return new Response(renderReportHtml(run), { headers });
  } catch (error) {
    if (isAppError(error) && error.status === 404)
      return new Response(error.message, {
        status: 404,
        headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
      });
    throw error;
  }
}
