// Discovery (platform-interface.md, "Shared discovery routes" and "Discovery"):
// the service calls GET /about with the legacy PsapConnector credential first
// and, on 401 or 403, again with the Publisher credential; /health answers 200.
// The first three checks are the same for every contract: what /about declares
// decides which checks follow (conformance-checks.ts, checksForVersion).
import { z } from "zod";
import { fail, pass, skipped, warn, type Check } from "../check.ts";
import type { ConformanceContext, DiscoveryState } from "../context.ts";
import { declares, isV3Version, legacyMajorOf, ZAbout } from "../about.schema.ts";
import { describeAnswer } from "../receiver-http.ts";
import { LEGACY_ROUTES } from "../../webhook-contracts/v2/routes.ts";

const NO_START =
  "The service reads /about before it delivers anything: without a valid declaration the integration never starts, and every event waits in the queue until its one-hour window expires.";

async function discover(ctx: ConformanceContext): Promise<DiscoveryState> {
  const legacy = await ctx.send({ method: "GET", path: "/about", token: await ctx.tokens.psapConnector() });
  let publisher;
  if (legacy.status === 401 || legacy.status === 403)
    publisher = await ctx.send({ method: "GET", path: "/about", token: await ctx.tokens.publisher() });
  const answer = publisher ?? legacy;
  const parsed = answer.status === 200 ? ZAbout.safeParse(answer.json) : undefined;
  return { legacy, publisher, answer, about: parsed?.success ? parsed.data : undefined };
}

/**
 * Does the receiver serve the v2 routes? A PsapConnector token with the route's scope and an
 * empty object as the body (no incident in it, so nothing a receiver could apply): any answer but
 * 404 means the route exists.
 */
async function probeV2Route(ctx: ConformanceContext) {
  return ctx.send({
    method: "POST",
    path: "/v2/incident",
    token: await ctx.tokens.psapConnector([LEGACY_ROUTES.incident.scope]),
    body: {},
  });
}

/** Checks after the first need a parsed v3 declaration. */
export function requireV3About(ctx: ConformanceContext) {
  const about = ctx.state.discovery?.about;
  if (!about)
    return {
      skip: skipped("/about gave no valid declaration, so the kit does not know which routes the receiver serves."),
    };
  if (!isV3Version(about.version))
    return { skip: skipped(`/about declares version ${about.version}; these checks are for the v3 contract.`) };
  return { about };
}

/** Run for every receiver, before the contract is known; the same objects head both plans. */
export const sharedDiscoveryChecks: Check[] = [
  {
    id: "about.reachable",
    group: "discovery",
    required: true,
    title: "GET /about answers 200 (legacy credential first, then Publisher on 401/403)",
    async run(ctx) {
      const d = (ctx.state.discovery = await discover(ctx));
      if (d.answer.status !== 200) {
        const how = d.publisher
          ? `refused the legacy credential (${d.legacy.status}), then ${describeAnswer(d.publisher)} to the Publisher credential`
          : describeAnswer(d.legacy);
        const hint =
          d.publisher?.status === 401 || d.publisher?.status === 403
            ? ` Is the agency right (aud ${ctx.tokens.audience()}), and does the receiver trust ${ctx.tokens.issuer()} and its JWKS?`
            : "";
        return fail(`/about ${how}.${hint}`, NO_START);
      }
      if (d.answer.json === undefined)
        return fail(`/about answered 200 without a JSON body: "${d.answer.bodyExcerpt.slice(0, 80)}"`, NO_START);
      return pass(d.publisher ? "answered the Publisher credential" : "answered the legacy credential");
    },
  },
  {
    id: "about.shape",
    group: "discovery",
    required: true,
    title: "/about has the declaration's shape (version, supports, allowsMonitoring)",
    async run(ctx) {
      const d = ctx.state.discovery;
      if (d?.answer.status !== 200 || d.answer.json === undefined) return skipped("/about gave no JSON answer.");
      const parsed = ZAbout.safeParse(d.answer.json);
      if (!parsed.success)
        return fail(
          `Not a capability declaration: ${z.prettifyError(parsed.error).replaceAll("\n", " ")}`,
          `The service rejects the declaration. ${NO_START}`,
        );
      return pass(`version ${parsed.data.version}`);
    },
  },
  {
    id: "about.version",
    group: "discovery",
    required: true,
    title: "/about declares a contract version the service serves (3.x; 2.x or 1.x for the legacy checks)",
    async run(ctx) {
      const about = ctx.state.discovery?.about;
      if (!about) return skipped("No valid declaration.");
      if (isV3Version(about.version)) return pass(`version ${about.version}: the v3 checks follow`);
      const major = legacyMajorOf(about.version);
      if (major)
        return pass(
          `version ${about.version}: the frozen v${major} contract; the v2 checks follow${major === 1 ? " under /v1" : ""}`,
        );
      return fail(
        `Declares version "${about.version}", neither 3.x nor a legacy 2.x/1.x.`,
        "The service picks the contract from this value alone: a receiver that means to be v3 but says otherwise gets another contract's bodies and credentials, or none.",
      );
    },
  },
];

export const v3DiscoveryChecks: Check[] = [
  {
    id: "about.declares-entry",
    group: "discovery",
    required: true,
    title: "/about declares incident.created or incident.changed",
    async run(ctx) {
      const { about, skip } = requireV3About(ctx);
      if (skip) return skip;
      if (declares(about, "created") || declares(about, "changed")) return pass();
      return fail(
        "Neither supports.incident.created nor supports.incident.changed is true.",
        `Rule 1 of the receiver routes: such a declaration is rejected. ${NO_START}`,
      );
    },
  },
  {
    id: "about.track-flags",
    group: "discovery",
    required: true,
    title: "caller.newLocation is declared only together with caller.trackReplaced",
    async run(ctx) {
      const { about, skip } = requireV3About(ctx);
      if (skip) return skip;
      if (declares(about, "caller.newLocation") && !declares(about, "caller.trackReplaced")) {
        return fail(
          "Declares caller.newLocation without caller.trackReplaced.",
          "Appends arrive only for a track received in full, and whole tracks come only by PUT caller/track: such a receiver cannot hold a correct track (rule 4).",
        );
      }
      return pass();
    },
  },
  {
    id: "about.refuses-legacy-credential",
    group: "discovery",
    required: true,
    title:
      "A v3-only receiver refuses the legacy PsapConnector credential with 401 or 403 (a warning while it serves v2 routes)",
    async run(ctx) {
      const { skip } = requireV3About(ctx);
      if (skip) return skip;
      const legacy = ctx.state.discovery!.legacy;
      if (legacy.status === 401 || legacy.status === 403) return pass(`answered ${legacy.status}`);
      // Versioning rule 3: during a cutover a receiver serves its v2 routes beside the v3 ones and
      // so rightly knows the legacy credential; it is not v3-only yet.
      const v2 = await probeV2Route(ctx);
      if (v2.status !== 404 && v2.status !== 0)
        return warn(
          `/about ${describeAnswer(legacy)} to a PsapConnector token, and the receiver serves v2 routes beside v3 (POST /v2/incident ${describeAnswer(v2)} to a probe): a receiver mid-cutover, not v3-only.`,
          "Fine while the v2 routes are served. Once they are removed, /about must refuse the legacy credential: otherwise it shows the receiver checks neither aud, sub nor client_id.",
        );
      return fail(
        `/about ${describeAnswer(legacy)} to a PsapConnector token (aud urn:service:agency:…, sub PsapConnector).`,
        "A v3 receiver must accept only Publisher tokens for its own webhooks audience. Accepting the legacy credential shows it does not check aud, sub or client_id, and the service takes the answer to that first call as the declaration.",
      );
    },
  },
  {
    id: "health.ok",
    group: "discovery",
    required: true,
    title: "GET /health answers 200",
    async run(ctx) {
      // The credential of the declared contract: a v1/v2 receiver may know only PsapConnector.
      const legacy = ctx.state.discovery?.about && legacyMajorOf(ctx.state.discovery.about.version);
      const res = await ctx.send({
        method: "GET",
        path: "/health",
        token: await (legacy ? ctx.tokens.psapConnector() : ctx.tokens.publisher()),
      });
      if (res.status === 200) return pass();
      return fail(
        `/health ${describeAnswer(res)}.`,
        "The service and operators read /health to know the connector is available; a receiver that is up but answers otherwise looks down.",
      );
    },
  },
];

export const healthCheck: Check = v3DiscoveryChecks.find((c) => c.id === "health.ok")!;

/** The v3 plan's discovery group, in run order. */
export const discoveryChecks: Check[] = [...sharedDiscoveryChecks, ...v3DiscoveryChecks];
