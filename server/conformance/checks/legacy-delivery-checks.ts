// Delivery semantics for v1/v2 receivers (platform-interface.md, "Delivery
// rules", which hold for every version, and the route mapping of Versioning
// rule 7): exactly 200, the body's requestId deduplicated, quick answers, a Test
// incident (isTest true) and an all-null one, the track sequences, the whole
// incident again for a change no v2 route expresses, closed. v1/v2 have no
// capability flags, so the service sends every route of the v2 table to every
// 1.x/2.x receiver (LEGACY_DECISIONS): each route is exercised, none skipped.
// Every body comes from the legacy planner (legacy-events.ts).
import { fail, pass, skipped, type Check, type CheckOutcome } from "../check.ts";
import type { ConformanceContext } from "../context.ts";
import { knownLocation, measuredLocation, sampleIncident, sampleTracks } from "../sample-incidents.ts";
import type { LegacyMajor } from "../../webhook-contracts/v2/routes.ts";
import { RETRY_RISK, unless200 } from "./deliver-events.ts";
import { requireLegacyAbout } from "./legacy-discovery-checks.ts";
import {
  appended,
  created,
  deliverLegacy,
  deliverLegacyInOrder,
  describeRoutes,
  last,
  planStory,
  trackReplaced,
} from "./legacy-events.ts";
import { changeDeviceInfo, otherRouteSteps } from "./legacy-other-routes.ts";
import { judgeLatency, P95_LIMIT_MS } from "./delivery-checks.ts";

/** A v2 delivery check: runs for a 1.x/2.x declaration once the valid PsapConnector token was accepted. */
function legacyDeliveryCheck(
  def: Omit<Check, "group" | "run"> & { run: (ctx: ConformanceContext, major: LegacyMajor) => Promise<CheckOutcome> },
): Check {
  return {
    id: def.id,
    group: "delivery",
    title: def.title,
    required: def.required,
    async run(ctx) {
      const r = requireLegacyAbout(ctx);
      if (r.skip) return r.skip;
      if (ctx.state.validTokenAccepted === false)
        return skipped("The valid PsapConnector token was refused: no delivery can succeed.");
      return def.run(ctx, r.major);
    },
  };
}

/** Plans the story and delivers all of it; passes with the routes it took. */
async function deliverStory(
  ctx: ConformanceContext,
  major: LegacyMajor,
  steps: Parameters<typeof planStory>[2],
): Promise<CheckOutcome> {
  const events = planStory(ctx, major, steps);
  return (await deliverLegacyInOrder(ctx, events)) ?? pass(describeRoutes(events));
}

export const legacyDeliveryChecks: Check[] = [
  legacyDeliveryCheck({
    id: "v2.delivery.exactly-200",
    required: true,
    title: "An accepted v2 event is answered with exactly 200 (not 201 or 204)",
    async run(ctx, major) {
      const [event] = planStory(ctx, major, [created(sampleIncident(ctx.samples))]);
      return unless200(await deliverLegacy(ctx, event!), event!) ?? pass();
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.duplicate-request-id",
    required: true,
    title: "The same body requestId delivered twice is accepted both times",
    async run(ctx, major) {
      const [event] = planStory(ctx, major, [created(sampleIncident(ctx.samples))]);
      const first = unless200(await deliverLegacy(ctx, event!), event!);
      if (first) return first;
      const again = await deliverLegacy(ctx, event!);
      if (again.status === 200) return pass();
      return fail(
        `The retry of an event already accepted (same body, requestId ${event!.requestId}) ${again.status === 0 ? "got no answer" : `answered ${again.status}`}.`,
        `v1/v2 retries keep requestId and requestTimeStampUtc in the body: a receiver must recognise a requestId it has recorded (keep ids at least an hour) and answer 200 again, without processing it twice. ${RETRY_RISK}`,
      );
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.test-purpose",
    required: true,
    title: "A Test incident (isTest true) is accepted",
    async run(ctx, major) {
      const [event] = planStory(ctx, major, [created(sampleIncident(ctx.samples, { purpose: "Test" }))]);
      return unless200(await deliverLegacy(ctx, event!), event!) ?? pass("isTest true");
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.nullable-members",
    required: true,
    title: "An incident whose nullable members are all null is accepted",
    async run(ctx, major) {
      const [event] = planStory(ctx, major, [created(sampleIncident(ctx.samples, { nullable: true }))]);
      const res = await deliverLegacy(ctx, event!);
      if (res.status === 200) return pass();
      const failed = unless200(res, event!) as Extract<CheckOutcome, { outcome: "fail" }>;
      return fail(
        `${failed.reason} The body had every nullable member null (phoneNumbers empty, device info members, medical data, chat, label…).`,
        `A nullable member carries null until the data exists; many real incidents start this way. ${RETRY_RISK}`,
      );
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.create-then-track",
    required: true,
    title: "Survives create-then-track: POST incident, then one whole-track PUT position per source",
    run: (ctx, major) =>
      deliverStory(ctx, major, [created(sampleIncident(ctx.samples, { tracks: sampleTracks(ctx.samples) }))]),
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.append-after-track",
    required: true,
    title: "Survives an append (POST position) after a full track",
    async run(ctx, major) {
      const steps = [created(sampleIncident(ctx.samples, { tracks: sampleTracks(ctx.samples) }))];
      steps.push(appended(last(steps), measuredLocation(ctx.samples, { metres: 5, offset: 2 })));
      steps.push(appended(last(steps), knownLocation(ctx.samples, 1)));
      return deliverStory(ctx, major, steps);
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.track-replacement",
    required: true,
    title: "Survives a whole-track replacement (PUT position: a coarse fix discarded for a precise one)",
    async run(ctx, major) {
      const steps = [
        created(
          sampleIncident(ctx.samples, {
            tracks: [{ source: "MobileApp", track: [measuredLocation(ctx.samples, { metres: 1500 })] }],
          }),
        ),
      ];
      steps.push(trackReplaced(last(steps), "MobileApp", [measuredLocation(ctx.samples, { metres: 6, offset: 3 })]));
      return deliverStory(ctx, major, steps);
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.whole-incident-again",
    required: true,
    title: "Takes the whole incident again (POST incident for a known incident) for a change no v2 route expresses",
    async run(ctx, major) {
      const steps = [created(sampleIncident(ctx.samples))];
      steps.push({
        change: { kind: "labelChanged" },
        snapshot: { ...last(steps), label: "Conformance run: label changed" },
      });
      steps.push({
        change: { kind: "patient.descriptionChanged" },
        snapshot: { ...last(steps), patient: { description: null } },
      });
      return deliverStory(ctx, major, steps);
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.other-routes",
    required: true,
    title: "Accepts the other v2 routes: psap, battery-level, internet-connection-type, start-video",
    async run(ctx, major) {
      const steps = [created(sampleIncident(ctx.samples))];
      for (const next of otherRouteSteps) steps.push(next(last(steps), ctx.samples));
      return deliverStory(ctx, major, steps);
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.closed",
    required: true,
    title: "Survives the close event (POST /v2/incident/{id})",
    async run(ctx, major) {
      const steps = [created(sampleIncident(ctx.samples))];
      steps.push({
        change: { kind: "incident.closed", closedAtUtc: ctx.clock.now().toISOString() },
        snapshot: last(steps),
      });
      return deliverStory(ctx, major, steps);
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.unknown-incident",
    required: false,
    title: "An event for an incident it never received is still answered 200",
    async run(ctx, major) {
      // Delivery rule 4: "an unprocessable delivery should still be recorded and answered 200". The create is planned, never sent.
      const steps = [created(sampleIncident(ctx.samples))];
      steps.push(changeDeviceInfo(last(steps), ctx.samples));
      const event = planStory(ctx, major, steps).find((e) => e.route === "batteryLevel")!;
      const res = await deliverLegacy(ctx, event);
      if (res.status === 200) return pass(describeRoutes([event]));
      return fail(
        `${event.method} ${event.path} for an unknown incident ${res.status === 0 ? "got no answer" : `answered ${res.status}`}.`,
        `A receiver can miss an incident (an outage, an incident older than the integration). Answering non-200 cannot be fixed by a retry: record the event, answer 200 and work in the portal. ${RETRY_RISK}`,
      );
    },
  }),
  legacyDeliveryCheck({
    id: "v2.delivery.latency-p95",
    required: false,
    title: `Answers quickly: p95 of this run's deliveries within ${P95_LIMIT_MS / 1000} s`,
    run: async (ctx) => judgeLatency(ctx.state.latenciesMs),
  }),
];
