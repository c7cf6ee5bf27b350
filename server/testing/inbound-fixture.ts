// Shared setup of the inbound black-box tests: a test server, seeded tokens,
// a client, and a helper that creates an incident.
import { randomUUID } from "node:crypto";
import { startTestServer, type TestServer } from "./test-server.ts";
import { seededTokens } from "./inbound-tokens.ts";
import { inboundClient } from "./inbound-client.ts";

export type InboundFixture = Awaited<ReturnType<typeof startInboundFixture>>;

export async function startInboundFixture(options: { env?: Record<string, string> } = {}) {
  const server: TestServer = await startTestServer(options);
  const tokens = await seededTokens(server.runtime);
  const call = inboundClient(server.url);
  let n = 0;
  async function createIncident(body: Record<string, unknown> = {}, token = tokens.north): Promise<string> {
    n += 1;
    const a = await call("POST", "/v1/incidents", {
      token,
      body: {
        routingMode: "TokenAgency",
        requestedIncidentId: randomUUID(),
        caller: { phoneNumber: `+47955${String(n).padStart(5, "0")}` },
        ...body,
      },
    });
    if (a.status !== 201) throw new Error(`create failed: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body.incidentId as string;
  }
  return { server, runtime: server.runtime, tokens, call, createIncident, close: () => server.close() };
}
