// The layering of .dependency-cruiser.cjs, probed import by import: which of its path rules forbid an
// import from one file to another, matched as dependency-cruiser matches them (from.path and
// from.pathNot, to.path and to.pathNot, as regular expressions on repository paths). `npm run lint`
// applies the same rules to the real imports; this says what they mean for the engine's modules
// (decision 0060), so a rule loosened by mistake fails here, not only when an import slips through.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

type PathMatch = { path?: string; pathNot?: string };
type Rule = { name: string; from: PathMatch; to: PathMatch & { circular?: boolean; couldNotResolve?: boolean } };
const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as { forbidden: Rule[] };

const matches = (m: PathMatch, file: string) =>
  (m.path === undefined || new RegExp(m.path).test(file)) &&
  (m.pathNot === undefined || !new RegExp(m.pathNot).test(file));

/** The rules that forbid importing `to` from `from` (rules on cycles and unresolvable imports left out). */
function rulesAgainst(from: string, to: string): string[] {
  return config.forbidden
    .filter((r) => r.to.circular === undefined && r.to.couldNotResolve === undefined)
    .filter((r) => matches(r.from, from) && matches(r.to, to))
    .map((r) => r.name);
}

const ENGINE = "server/webhooks";

describe("the engine's modules in the layer rules", () => {
  it.each([
    [`${ENGINE}/delivery/deliver-event.ts`, `${ENGINE}/planning/plan-deliveries.ts`, "layer-delivery"],
    [`${ENGINE}/planning/plan-deliveries.ts`, `${ENGINE}/delivery/claim-deliveries.ts`, "layer-planning"],
    [`${ENGINE}/delivery/deliver-event.ts`, "server/reference-receiver/faults.ts", "layer-delivery"],
    [`${ENGINE}/discovery/discovery-worker.ts`, "server/reference-receiver/receiver-events.ts", "layer-discovery"],
    [`${ENGINE}/outbox/outbox-row.ts`, `${ENGINE}/planning/plan-deliveries.ts`, "layer-outbox"],
    [`${ENGINE}/outbox/outbox-row.ts`, `${ENGINE}/delivery/lanes.ts`, "layer-outbox"],
    [`${ENGINE}/listen/listener-session.ts`, `${ENGINE}/discovery/discover-integration.ts`, "layer-listen"],
    [`${ENGINE}/sending/send-request.ts`, `${ENGINE}/delivery/deliver-event.ts`, "layer-sending"],
    [`${ENGINE}/discovery/discover-integration.ts`, `${ENGINE}/admin/manage-integrations.ts`, "layer-discovery"],
    [`${ENGINE}/admin/resend-incident.ts`, `${ENGINE}/start-webhook-engine.ts`, "layer-admin"],
    [`${ENGINE}/loose-file.ts`, `${ENGINE}/outbox/outbox-row.ts`, "engine-files-in-modules"],
  ])("%s → %s is refused by %s", (from, to, rule) => {
    expect(rulesAgainst(from, to)).toContain(rule);
  });

  it.each([
    [`${ENGINE}/delivery/deliver-event.ts`, `${ENGINE}/outbox/outbox-row.ts`],
    [`${ENGINE}/planning/plan-deliveries.ts`, `${ENGINE}/outbox/local-claimer.ts`],
    [`${ENGINE}/delivery/deliver-event.ts`, `${ENGINE}/sending/send-request.ts`],
    [`${ENGINE}/sending/send-request.ts`, `${ENGINE}/listen/listener-transport.ts`],
    [`${ENGINE}/discovery/discover-integration.ts`, `${ENGINE}/planning/plan-held-changes.ts`],
    [`${ENGINE}/admin/replay-deliveries.ts`, `${ENGINE}/delivery/deliver-event.ts`],
    [`${ENGINE}/start-webhook-engine.ts`, `${ENGINE}/planning/supersede-queued-events.ts`],
    ["server/reference-receiver/receiver-capabilities.ts", `${ENGINE}/webhook-events.ts`],
    [`${ENGINE}/delivery/supersede-on-delivery.int.test.ts`, `${ENGINE}/planning/plan-deliveries.ts`],
  ])("%s → %s is allowed", (from, to) => {
    expect(rulesAgainst(from, to)).toEqual([]);
  });
});
