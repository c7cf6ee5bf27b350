// A test server for black-box tests of the dashboard's API: every test server serves the real
// /api/trpc (server/http/workbench-api.ts) behind the request guard; this one answers every page
// path 404 (no Next) and makes its runtime the process's, as server/main.ts does.
import { setRuntime } from "../runtime.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

export async function startDashboardApiServer(options: { env?: Record<string, string> } = {}): Promise<TestServer> {
  const server = await startTestServer({
    ...options,
    nextHandler: (_req, res) => {
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
