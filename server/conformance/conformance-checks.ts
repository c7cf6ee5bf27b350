// The whole kit, in run order: discovery first (later checks read what /about
// declared), then tokens (the valid-token check gates the refusals), then
// delivery (the latency check last, over every delivery the run made).
// Which contract's checks follow the shared discovery checks is decided by the
// declared version (Versioning rule 3: the service picks the contract from it
// alone): 1.x/2.x get the v2 checks, anything else the v3 ones.
import type { Check } from "./check.ts";
import { legacyMajorOf } from "./about.schema.ts";
import { healthCheck, sharedDiscoveryChecks, v3DiscoveryChecks } from "./checks/discovery-checks.ts";
import { tokenChecks } from "./checks/token-checks.ts";
import { deliveryChecks } from "./checks/delivery-checks.ts";
import { legacyDiscoveryChecks } from "./checks/legacy-discovery-checks.ts";
import { legacyTokenChecks } from "./checks/legacy-token-checks.ts";
import { legacyDeliveryChecks } from "./checks/legacy-delivery-checks.ts";

/** The v3 plan (also the plan while nothing is declared yet). */
export const CONFORMANCE_CHECKS: Check[] = [
  ...sharedDiscoveryChecks,
  ...v3DiscoveryChecks,
  ...tokenChecks,
  ...deliveryChecks,
];

/** The plan for a 1.x/2.x receiver: the same first checks, then the legacy contract's. */
export const LEGACY_CONFORMANCE_CHECKS: Check[] = [
  ...sharedDiscoveryChecks,
  ...legacyDiscoveryChecks,
  healthCheck,
  ...legacyTokenChecks,
  ...legacyDeliveryChecks,
];

/** The plan for what /about declared (null: not known yet). Both plans start with sharedDiscoveryChecks, so a run can switch after them. */
export function checksForVersion(version: string | null | undefined): Check[] {
  return version && legacyMajorOf(version) ? LEGACY_CONFORMANCE_CHECKS : CONFORMANCE_CHECKS;
}
