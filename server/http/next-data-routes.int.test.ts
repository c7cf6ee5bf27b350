// The Next routes that serve data or documents check their caller themselves (SECURITY.md, "The
// dashboard"), so the shared-mode gate in front of Next is not their only defence: called
// straight, without the gate, they refuse a request without a session or API token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntime } from "../runtime.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createApiToken } from "../workbench/access/api-tokens.ts";
import { GET as report } from "../../app/api/conformance/runs/[runId]/report/route.ts";
import { GET as asyncApi } from "../../app/api/docs/webhooks/asyncapi.json/route.ts";
import { GET as legacySchemas } from "../../app/api/docs/webhooks/legacy-schemas.json/route.ts";

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer({ env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: "next-routes-admin-1" } });
  setRuntime(s.runtime);
  token = (await createApiToken({ ...s.runtime, input: { name: "routes", role: "viewer" }, createdBy: "test" })).token;
});
afterAll(async () => {
  setRuntime(undefined);
  await s.close();
});

const RUN = "00000000-0000-4000-8000-000000000001";
const routes = {
  "the conformance report": (headers: HeadersInit) =>
    report(new Request(`${s.url}/api/conformance/runs/${RUN}/report?download=1`, { headers }), {
      params: Promise.resolve({ runId: RUN }),
    }),
  "the AsyncAPI document": (headers: HeadersInit) =>
    asyncApi(new Request(`${s.url}/api/docs/webhooks/asyncapi.json`, { headers })),
  "the legacy schemas": (headers: HeadersInit) =>
    legacySchemas(new Request(`${s.url}/api/docs/webhooks/legacy-schemas.json`, { headers })),
};

describe.each(Object.entries(routes))("%s, called past the gate", (_name, call) => {
  it("refuses a caller without credentials, or with a wrong token or session, with 401 and no-store", async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer wbt_wrong" },
      { cookie: "wb_session=forged" },
    ];
    for (const headers of attempts) {
      const res = await call(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("answers an API token (a run that does not exist is a 404, not a 401)", async () => {
    const res = await call({ authorization: `Bearer ${token}` });
    expect([200, 404]).toContain(res.status);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
