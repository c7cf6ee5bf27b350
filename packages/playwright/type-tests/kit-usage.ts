// The kit's public types as a QA engineer's code meets them. Compiled, never run: by
// `npm run typecheck` and by the kit's own build (`npm run build:kit`, with the kit's settings).
// Every `@ts-expect-error` marks a mistake that must not compile: if one ever does, tsc fails on
// the unused directive. Everything else is a right usage that must keep compiling.
import {
  EmbeddedReceiver,
  ExternalReceiver,
  expect,
  findChromium,
  test,
  v3Declaration,
  type AboutDeclaration,
  type ReadyLine,
} from "../src/index.ts";

test("right usages compile", async ({
  externalReceiver,
  receivers,
  clock,
  partnerApi,
  signInDispatcher,
  page,
  workbench,
  clients,
}) => {
  await clients.fault("partner-cad", { surface: "token", mode: "http-503", count: 2, retryAfterS: 1 });
  await expect(clients.client("partner-cad")).toHaveNoAdvice();
  await expect(clients.client()).toHaveNoAdvice({ severity: "error" });
  await expect(clients.client("partner-readonly")).toHaveAdvice("token-per-call");
  // @ts-expect-error: not a rule the workbench checks
  await expect(clients.client()).toHaveAdvice("token-per-request");
  // @ts-expect-error: not a surface
  await clients.fault(null, { surface: "v2", mode: "http-500" });
  const receiver = await externalReceiver.attach("north-psap", {
    declaration: v3Declaration({ labelChanged: false, "caller.liveVideo.ended": false }),
    status: 503,
  });
  const handWritten: AboutDeclaration = {
    version: "3.1",
    supports: { incident: { created: true, caller: { liveVideo: { activated: true } } } },
  };
  receiver.declare(handWritten);
  receiver.declare(v3Declaration({}, "2.0"));
  receiver.answerWith(200);
  await externalReceiver.rediscover("north-psap");
  await externalReceiver.attach();

  const north: EmbeddedReceiver = receivers.embedded("north-psap");
  await receivers.fault("north-psap", "http-503", { for: "10m", at: "+5m" });
  await receivers.fault("central-ems", "slow:2000");
  await receivers.fault("central-ems", "flaky:30", { for: 60_000, at: "2026-11-25T08:00:00Z" });
  await receivers.networkFault("north-psap", "refused");
  await receivers.capabilities("north-psap", { summaryChanged: false }, { version: "3.0" });
  await receivers.embedded("an-integration-added-later").received();
  await clock.advance("61m");
  await clock.advance(90_000);

  const incidentId = await partnerApi.createIncident({
    label: "x",
    caller: { location: { latitude: 59, longitude: 10 } },
  });
  await partnerApi
    .as({ agencyId: workbench.seed.agencies.centralEms, username: null, scopes: ["agency.read"] })
    .token();
  await partnerApi.call("PATCH", `/v1/incidents/${incidentId}/label`, { label: null });
  await signInDispatcher(page, { username: "dispatcher.ems", returnUrl: "/portal" });

  await expect(receiver).toHaveReceived("PATCH", "/label", { incidentId, status: 200, times: 1, timeout: 5_000 });
  await expect(north).not.toHaveReceived("POST", "/v3/incidents", { body: { incident: { id: incidentId } } });
  const started: ExternalReceiver = await ExternalReceiver.start({ declaration: handWritten });
  await started.close();
});

test("wrong usages do not compile", async ({ externalReceiver, receivers, clock, partnerApi }) => {
  // The capability flags where the /about body belongs: what the declaration type is for.
  // @ts-expect-error -- flags form; write v3Declaration({ labelChanged: false })
  await externalReceiver.attach("north-psap", { declaration: { labelChanged: false } });
  // @ts-expect-error -- a declaration needs `supports`
  await externalReceiver.attach("north-psap", { declaration: { version: "3.0" } });
  await externalReceiver.attach("north-psap", {
    // @ts-expect-error -- a misspelt flag inside a hand-written declaration
    declaration: { version: "3.0", supports: { incident: { lableChanged: true } } },
  });
  // @ts-expect-error -- the status is a number
  await externalReceiver.attach("north-psap", { status: "503" });
  const receiver = await externalReceiver.attach();
  // @ts-expect-error -- declare takes a declaration too
  receiver.declare({ labelChanged: true });
  // @ts-expect-error -- v3Declaration takes the spec's flag names only
  v3Declaration({ lableChanged: false });
  // @ts-expect-error -- an integration key, not an options object, comes first
  await externalReceiver.attach({ declaration: v3Declaration() });

  // @ts-expect-error -- no such fault mode
  await receivers.fault("north-psap", "http-504");
  // @ts-expect-error -- slow needs its milliseconds
  await receivers.fault("north-psap", "slow");
  // @ts-expect-error -- a network fault is refused, timeout or ok
  await receivers.networkFault("north-psap", "down");
  // @ts-expect-error -- a misspelt capability flag
  await receivers.capabilities("north-psap", { labelchanged: false });
  // @ts-expect-error -- a duration is written 10m
  await receivers.fault("north-psap", "http-500", { for: "10 minutes" });
  // @ts-expect-error -- a relative start needs its +
  await receivers.fault("north-psap", "http-500", { at: "5m" });
  // @ts-expect-error -- the clock takes a Duration
  await clock.advance("1 hour");

  // @ts-expect-error -- a misspelt field of POST /v1/incidents' body
  await partnerApi.createIncident({ lable: "x" });
  // @ts-expect-error -- routingMode is TokenAgency or Jurisdiction
  await partnerApi.createIncident({ routingMode: "Token" });
  // @ts-expect-error -- agencyId, not agency
  partnerApi.as({ agency: "x" });
  // @ts-expect-error -- not an HTTP method
  await partnerApi.call("FETCH", "/v1/incidents");

  // @ts-expect-error -- not an HTTP method
  await expect(receiver).toHaveReceived("PATHC", "/label");
  // @ts-expect-error -- incidentId, not incidentID
  await expect(receiver).toHaveReceived("PATCH", "/label", { incidentID: "x" });
});

// The ready line and the browser search, as a script reads them.
declare const ready: ReadyLine;
const healthUrl: string = ready.healthUrl;
const chromium = findChromium();
const where: string = chromium.found ? chromium.path : chromium.message;
// @ts-expect-error -- a search that found nothing has no path
void (chromium.found || chromium.path);
void [healthUrl, where];
