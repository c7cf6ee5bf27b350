// Delivery semantics (platform-interface.md, "Delivery rules" and the receiver
// route rules): exactly 200, deduplication on Service-Request-Id, quick
// answers, Test and all-null incidents, the track sequences, closed. Each check
// uses its own incident and only the routes the receiver declares.
import { randomUUID } from "node:crypto";
import { fail, pass, skipped, type Check, type CheckOutcome } from "../check.ts";
import type { ConformanceContext } from "../context.ts";
import { declares, type TAbout } from "../about.schema.ts";
import type { V3FlagPath } from "../../webhook-contracts/v3/capability-flags.ts";
import { knownLocation, measuredLocation, sampleIncident, sampleTracks } from "../sample-incidents.ts";
import { requireV3About } from "./discovery-checks.ts";
import {
  deliver,
  deliverInOrder,
  incidentPath,
  openingSteps,
  RETRY_RISK,
  unless200,
  type EventStep,
} from "./deliver-events.ts";
import { declaredSpecificSteps } from "./specific-routes.ts";

/** platform-interface.md, Delivery rule 4: "answer 200 as soon as the delivery is durably recorded and process afterwards". */
export const P95_LIMIT_MS = 1_000;

type Needs = { anyOf?: V3FlagPath[]; allOf?: V3FlagPath[] };

/** A delivery check that runs only when /about declares what it needs (and the valid token works). */
function deliveryCheck(
  def: Omit<Check, "group" | "run"> & {
    needs?: Needs;
    run: (ctx: ConformanceContext, about: TAbout) => Promise<CheckOutcome>;
  },
): Check {
  return {
    id: def.id,
    group: "delivery",
    title: def.title,
    required: def.required,
    async run(ctx) {
      const { about, skip } = requireV3About(ctx);
      if (skip) return skip;
      const { anyOf, allOf } = def.needs ?? {};
      if (anyOf && !anyOf.some((f) => declares(about, f)))
        return skipped(`The receiver declares none of ${anyOf.join(", ")}, so the service never sends this.`);
      const missing = (allOf ?? []).filter((f) => !declares(about, f));
      if (missing.length)
        return skipped(`The receiver does not declare ${missing.join(", ")}, so the service never sends this.`);
      if (ctx.state.validTokenAccepted === false)
        return skipped("The valid Publisher token was refused: no delivery can succeed.");
      return def.run(ctx, about);
    },
  };
}

/** The receiver's entry event for a new incident: create when declared, else the generic changed event. */
function entryStep(
  ctx: ConformanceContext,
  about: TAbout,
  options: { purpose?: "Demo" | "Test"; nullable?: boolean } = {},
): EventStep {
  const incident = sampleIncident(ctx.samples, options);
  if (declares(about, "created")) return { method: "POST", path: "/v3/incidents", body: { incident } };
  return {
    method: "POST",
    path: incidentPath(incident, "changed"),
    body: { event: "PATCH label", openUrl: incident.openUrl },
  };
}

export function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

/** The answer-time verdict over a run's deliveries (v3 and v1/v2 alike). */
export function judgeLatency(samples: number[]): CheckOutcome {
  if (samples.length < 5) return skipped(`Only ${samples.length} deliveries were answered: too few for a p95.`);
  const value = p95(samples);
  const note = `p95 ${value} ms over ${samples.length} deliveries (max ${Math.max(...samples)} ms)`;
  if (value <= P95_LIMIT_MS) return pass(note);
  return fail(
    `${note}.`,
    "Record, answer, then process: deliveries for one incident are sequential, so a slow answer delays every later event of that incident, and an answer past the service's timeout counts as a failure and is retried.",
  );
}

export const deliveryChecks: Check[] = [
  deliveryCheck({
    id: "delivery.exactly-200",
    required: true,
    title: "An accepted event is answered with exactly 200 (not 201 or 204)",
    async run(ctx, about) {
      const step = entryStep(ctx, about);
      return unless200(await deliver(ctx, step), step) ?? pass();
    },
  }),
  deliveryCheck({
    id: "delivery.duplicate-request-id",
    required: true,
    title: "The same Service-Request-Id delivered twice is accepted both times",
    async run(ctx, about) {
      const step = { ...entryStep(ctx, about), requestId: randomUUID(), timestamp: ctx.clock.now().toISOString() };
      const first = unless200(await deliver(ctx, step), step);
      if (first) return first;
      const again = await deliver(ctx, step);
      if (again.status === 200) return pass();
      return fail(
        `The retry of an event already accepted (same Service-Request-Id ${step.requestId}) ${again.status === 0 ? "got no answer" : `answered ${again.status}`}.`,
        `Retries keep their Service-Request-Id: a receiver must recognise one it has recorded (keep ids at least an hour) and answer 200 again, without processing it twice. ${RETRY_RISK}`,
      );
    },
  }),
  deliveryCheck({
    id: "delivery.test-purpose",
    required: true,
    needs: { allOf: ["created"] },
    title: "A Test-purpose incident is accepted",
    async run(ctx, about) {
      const step = entryStep(ctx, about, { purpose: "Test" });
      const failed = unless200(await deliver(ctx, step), step);
      return failed ?? pass();
    },
  }),
  deliveryCheck({
    id: "delivery.nullable-members",
    required: true,
    needs: { allOf: ["created"] },
    title: "An incident whose nullable members are all null is accepted",
    async run(ctx, about) {
      const step = entryStep(ctx, about, { nullable: true });
      const res = await deliver(ctx, step);
      if (res.status === 200) return pass();
      const failed = unless200(res, step) as Extract<CheckOutcome, { outcome: "fail" }>;
      return fail(
        `${failed.reason} The body had every nullable member null (caller phone number, device info, medical data, chat, label…).`,
        `A nullable member carries null until the data exists; many real incidents start this way. ${RETRY_RISK}`,
      );
    },
  }),
  deliveryCheck({
    id: "delivery.create-then-track",
    required: true,
    needs: { allOf: ["caller.trackReplaced"] },
    title: "Survives create-then-track: the create event, then one whole-track PUT per source",
    async run(ctx, about) {
      const incident = sampleIncident(ctx.samples, { tracks: sampleTracks(ctx.samples) });
      return (
        (await deliverInOrder(ctx, openingSteps(about, incident))) ??
        pass(`${incident.caller.tracks.length} whole-track PUTs (Measured and Known locations)`)
      );
    },
  }),
  deliveryCheck({
    id: "delivery.append-after-track",
    required: true,
    needs: { allOf: ["caller.newLocation", "caller.trackReplaced"] },
    title: "Survives an append (POST caller/track) after a full track",
    async run(ctx, about) {
      const incident = sampleIncident(ctx.samples, { tracks: sampleTracks(ctx.samples) });
      const appends: EventStep[] = [
        {
          method: "POST",
          path: incidentPath(incident, "caller/track"),
          body: { location: measuredLocation(ctx.samples, { metres: 5, offset: 2 }) },
        },
        {
          method: "POST",
          path: incidentPath(incident, "caller/track"),
          body: { location: knownLocation(ctx.samples, 1) },
        },
      ];
      return (
        (await deliverInOrder(ctx, [...openingSteps(about, incident), ...appends])) ??
        pass("a Measured and a Known location appended")
      );
    },
  }),
  deliveryCheck({
    id: "delivery.track-replacement",
    required: true,
    needs: { allOf: ["caller.trackReplaced"] },
    title: "Survives a whole-track replacement (a coarse fix discarded for a precise one)",
    async run(ctx, about) {
      const incident = sampleIncident(ctx.samples, {
        tracks: [{ source: "MobileApp", track: [measuredLocation(ctx.samples, { metres: 1500 })] }],
      });
      const replace: EventStep = {
        method: "PUT",
        path: incidentPath(incident, "caller/track"),
        body: { source: "MobileApp", track: [measuredLocation(ctx.samples, { metres: 6, offset: 3 })] },
      };
      return (await deliverInOrder(ctx, [...openingSteps(about, incident), replace])) ?? pass();
    },
  }),
  deliveryCheck({
    id: "delivery.changed-event",
    required: true,
    needs: { allOf: ["changed"] },
    title: "Accepts the generic changed event ({event, openUrl})",
    async run(ctx, about) {
      const incident = sampleIncident(ctx.samples);
      const changed: EventStep = {
        method: "POST",
        path: incidentPath(incident, "changed"),
        body: { event: "PATCH caller/full-name", openUrl: incident.openUrl },
      };
      return (await deliverInOrder(ctx, [...openingSteps(about, incident), changed])) ?? pass();
    },
  }),
  deliveryCheck({
    id: "delivery.specific-routes",
    required: true,
    title: "Accepts every other event route it declares",
    async run(ctx, about) {
      const incident = sampleIncident(ctx.samples);
      const { flags, steps } = declaredSpecificSteps(about, incident, ctx.samples);
      if (!steps.length) return skipped("The receiver declares no other specific route.");
      return (await deliverInOrder(ctx, [...openingSteps(about, incident), ...steps])) ?? pass(flags.join(", "));
    },
  }),
  deliveryCheck({
    id: "delivery.closed",
    required: true,
    needs: { allOf: ["closed"] },
    title: "Survives the closed event",
    async run(ctx, about) {
      const incident = sampleIncident(ctx.samples);
      const closed: EventStep = {
        method: "POST",
        path: incidentPath(incident, "closed"),
        body: { closedAtUtc: ctx.clock.now().toISOString() },
      };
      return (await deliverInOrder(ctx, [...openingSteps(about, incident), closed])) ?? pass();
    },
  }),
  deliveryCheck({
    id: "delivery.unknown-incident",
    required: false,
    needs: { anyOf: ["labelChanged", "changed", "closed"] },
    title: "An event for an incident it never received is still answered 200",
    async run(ctx, about) {
      // Delivery rule 4: "an unprocessable delivery should still be recorded and answered 200 (use openUrl ...)".
      const incident = sampleIncident(ctx.samples);
      const step: EventStep = declares(about, "labelChanged")
        ? { method: "PATCH", path: incidentPath(incident, "label"), body: { label: "Conformance run: label changed" } }
        : declares(about, "changed")
          ? {
              method: "POST",
              path: incidentPath(incident, "changed"),
              body: { event: "PATCH label", openUrl: incident.openUrl },
            }
          : {
              method: "POST",
              path: incidentPath(incident, "closed"),
              body: { closedAtUtc: ctx.clock.now().toISOString() },
            };
      const res = await deliver(ctx, step);
      if (res.status === 200) return pass(`${step.method} ${step.path.replace(incident.id, "{new id}")}`);
      return fail(
        `${step.method} ${step.path} for an unknown incident ${res.status === 0 ? "got no answer" : `answered ${res.status}`}.`,
        `A receiver can miss an incident (an outage, an incident older than the integration). Answering non-200 cannot be fixed by a retry: record the event, answer 200 and work in the portal through openUrl. ${RETRY_RISK}`,
      );
    },
  }),
  deliveryCheck({
    id: "delivery.latency-p95",
    required: false,
    title: `Answers quickly: p95 of this run's deliveries within ${P95_LIMIT_MS / 1000} s`,
    run: async (ctx) => judgeLatency(ctx.state.latenciesMs),
  }),
];
