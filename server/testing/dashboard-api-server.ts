// A test server with the dashboard's API: the real /api/trpc route (the file Next
// serves) stands in for Next behind the same request guard, so black-box tests
// reach the guard, the route's bounds and the procedures over HTTP without a build.
import { getRequestListener } from "@hono/node-server";
import { setRuntime } from "../runtime.ts";
import { POST as trpcRoute } from "../../app/api/trpc/[trpc]/route.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

export async function startDashboardApiServer(options: { env?: Record<string, string> } = {}): Promise<TestServer> {
  const route = getRequestListener(trpcRoute);
  const server = await startTestServer({
    ...options,
    nextHandler: (req, res) => {
      if ((req.url ?? "").startsWith("/api/trpc/")) return route(req, res);
      res.writeHead(404, { "content-type": "text/plain" }).end("Not a page of this test server.\n");
    },
  });
  setRuntime(server.runtime);
  return {
    ...server,
    async close() {
      setRuntime(undefined);
      await server.close();
    },
  };
}
