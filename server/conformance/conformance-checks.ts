// The whole kit, in run order: discovery first (later checks read what /about
// declared), then tokens (the valid-token check gates the refusals), then
// delivery (the latency check last, over every delivery the run made).
import type { Check } from "./check.ts";
import { discoveryChecks } from "./checks/discovery-checks.ts";
import { tokenChecks } from "./checks/token-checks.ts";
import { deliveryChecks } from "./checks/delivery-checks.ts";

export const CONFORMANCE_CHECKS: Check[] = [...discoveryChecks, ...tokenChecks, ...deliveryChecks];
