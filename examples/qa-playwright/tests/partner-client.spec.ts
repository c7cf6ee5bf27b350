// The client half: the partner system's own calls judged by the spec's rules (the workbench's
// API calls page). A client that caches its token and sends requestedIncidentId earns no advice;
// one that fetches a token per call fails `workbench client-report --junit`, as a partner's CI
// would run it after its suite; and a client that honours Retry-After rides out a token outage.
import { readFile } from "node:fs/promises";
import { expect, SEED, test } from "@workbench/playwright";

test("the kit's partner client, which caches its token, earns no advice", async ({ partnerApi, clients }) => {
  const incidentId = await partnerApi.createIncident({ label: "a careful client" });
  await partnerApi.setLabel(incidentId, "still careful");
  await partnerApi.close(incidentId);
  await expect(clients.client("partner-cad")).toHaveNoAdvice();
});

test("client-report --junit fails the run of a client that fetches a token per call", async ({
  workbench,
  clients,
}, testInfo) => {
  const { clientId, clientSecret } = SEED.clients.partnerReadonly;
  for (let i = 0; i < 3; i++) {
    // The mistake: a new token for every call (Authentication, Access tokens, rule 2).
    const token = await fetch(`${workbench.url}/connect/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: clientId,
        client_secret: clientSecret,
        agency_context: SEED.agencies.northPsap,
        scope: "agency.read",
      }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    await fetch(`${workbench.url}/v1/agency/info`, { headers: { authorization: `Bearer ${access_token}` } });
  }
  await expect(clients.client(clientId)).toHaveAdvice("token-per-call");

  const junit = testInfo.outputPath("client-report.xml");
  const run = await clients.runClientReport(clientId, { junit });
  expect(run.code).toBe(1);
  expect(run.stdout).toContain("A new token while the last one had most of its life left");
  expect(await readFile(junit, "utf8")).toContain('<failure type="error"');
});

test("a client that honours Retry-After rides out a token-endpoint outage", async ({ workbench, clients }) => {
  await clients.fault("partner-cad", { surface: "token", mode: "http-503", count: 2, retryAfterS: 1 });
  const { clientId, clientSecret } = SEED.clients.partnerCad;
  let answer: Response;
  for (;;) {
    answer = await fetch(`${workbench.url}/connect/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: clientId,
        client_secret: clientSecret,
        agency_context: SEED.agencies.northPsap,
        scope: "agency.read",
      }),
    });
    if (answer.status !== 503) break;
    // The platform says when to come back; a client that waits less earns advice.
    await new Promise((r) => setTimeout(r, Number(answer.headers.get("retry-after") ?? 1) * 1000));
  }
  expect(answer.status).toBe(200);
  await expect(clients.client(clientId)).toHaveNoAdvice();
});
