// @workbench/playwright: Playwright fixtures and matchers for QA suites against
// the Incident Platform Workbench. See README.md for a user's guide.
import { expect as baseExpect } from "@playwright/test";
import { receiverMatchers } from "./matchers.ts";

export { test, SEED, durationMs } from "./fixtures.ts";
export type {
  ClockControl,
  Duration,
  ExternalReceiverControl,
  FaultOptions,
  ReceiverControl,
  Workbench,
  WorkbenchOptions,
} from "./fixtures.ts";
export { PartnerApi, INBOUND_SCOPES, type Acting, type ApiAnswer } from "./partner-api.ts";
export {
  EmbeddedReceiver,
  ExternalReceiver,
  v3Declaration,
  type ExternalReceiverOptions,
  type ReceivedRequest,
  type Receiver,
  type V3Flag,
} from "./receivers.ts";
export { matchesRequest, type ReceivedMatch } from "./matchers.ts";
export { workbenchApi, WorkbenchApiError, type WorkbenchApi } from "./workbench-api.ts";
export { startEphemeralWorkbench, type EphemeralWorkbench, type WorkbenchSeed } from "./ephemeral.ts";

/** Playwright's expect with the delivery matchers: `await expect(receiver).toHaveReceived("PATCH", "/label", { incidentId })`. */
export const expect = baseExpect.extend(receiverMatchers);
