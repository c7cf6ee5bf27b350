// Discovery for a receiver whose /about declares 2.x (or 1.x): the frozen
// legacy contract. The service reaches /about with the PsapConnector credential
// (aud urn:service:agency:{agency}, scope psap.read) and keeps that answer; it
// then sends every v1/v2 route with PsapConnector tokens. v1/v2 have no
// capability flags (workbench decision, LEGACY_DECISIONS in
// webhook-contracts/v2/build-legacy-schemas.ts): `supports` is not read, every route is sent.
import { fail, pass, skipped, type Check } from "../check.ts";
import type { ConformanceContext } from "../context.ts";
import { declares, legacyMajorOf, type TAbout } from "../about.schema.ts";
import { describeAnswer } from "../receiver-http.ts";
import {
  LEGACY_ROUTE_KEYS,
  LEGACY_ROUTES,
  legacyTemplate,
  type LegacyMajor,
  type LegacyRouteKey,
} from "../../webhook-contracts/v2/routes.ts";
import { flagPathOf, type V3FlagPath } from "../../webhook-contracts/v3/capability-flags.ts";

/** The v3 flag each v2 route stands for (Versioning rule 7), to compare a 2.x declaration with what it will be sent. */
const flagOfRoute = (key: LegacyRouteKey): V3FlagPath => flagPathOf(LEGACY_ROUTES[key].v3);

/** The v2 checks need a parsed 1.x/2.x declaration; the major picks the base route (/v2 or /v1). */
export function requireLegacyAbout(
  ctx: ConformanceContext,
): { about: TAbout; major: LegacyMajor; skip?: undefined } | { skip: ReturnType<typeof skipped> } {
  const about = ctx.state.discovery?.about;
  if (!about)
    return {
      skip: skipped("/about gave no valid declaration, so the kit does not know which contract the receiver serves."),
    };
  const major = legacyMajorOf(about.version);
  if (!major)
    return { skip: skipped(`/about declares version ${about.version}; these checks are for the legacy v2 contract.`) };
  return { about, major };
}

export const legacyDiscoveryChecks: Check[] = [
  {
    id: "v2.about.legacy-credential",
    group: "discovery",
    required: true,
    title: "A v2 receiver answers /about to the legacy PsapConnector credential itself",
    async run(ctx) {
      const r = requireLegacyAbout(ctx);
      if (r.skip) return r.skip;
      const d = ctx.state.discovery!;
      if (!d.publisher)
        return pass(
          `answered ${d.legacy.status} to PsapConnector (aud ${ctx.tokens.legacyAudience()}, scope psap.read)`,
        );
      return fail(
        `/about refused the PsapConnector credential (${describeAnswer(d.legacy)}) and declared ${r.about.version} only to the Publisher credential.`,
        "Every v1/v2 event is sent with a PsapConnector token (aud urn:service:agency:{agency}, the route's psap.* scope). A receiver that refuses that credential at /about most likely refuses it on its event routes too: every event would be retried for an hour, then lost.",
      );
    },
  },
  {
    id: "v2.about.flags",
    group: "discovery",
    required: false,
    title: "A v2 declaration's flags do not switch off routes the service sends anyway",
    async run(ctx) {
      const r = requireLegacyAbout(ctx);
      if (r.skip) return r.skip;
      const flags = LEGACY_ROUTE_KEYS.map(flagOfRoute);
      if (!flags.some((f) => declares(r.about, f))) return pass("no flags: v1/v2 have none, every route is sent");
      const undeclared = LEGACY_ROUTE_KEYS.filter((k) => !declares(r.about, flagOfRoute(k))).map((k) =>
        legacyTemplate(k, r.major),
      );
      if (!undeclared.length) return pass("every v2 route's counterpart flag is declared");
      return fail(
        `Declares some v3 flags but not the counterparts of ${undeclared.join(", ")}.`,
        "Under 1.x/2.x the service does not read `supports`: it sends every v1/v2 route regardless. A receiver that counts on its flags to keep routes away will be sent them anyway; to choose routes, cut over to 3.x.",
      );
    },
  },
];
