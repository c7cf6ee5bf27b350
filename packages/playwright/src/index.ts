// @workbench/playwright: Playwright fixtures and matchers for QA suites against
// the Incident Platform Workbench. See README.md for a user's guide.
import { expect as baseExpect } from "@playwright/test";
import { clientMatchers, receiverMatchers } from "./matchers.ts";

export { test, SEED } from "./fixtures.ts";
export { durationMs, type Duration } from "./duration.ts";
export type {
  AnyIntegrationKey,
  CapabilityOptions,
  ClockControl,
  ExternalReceiverControl,
  FaultOptions,
  IntegrationKey,
  IsoTimestamp,
  NetworkFaultMode,
  ReceiverControl,
  ReceiverFaultMode,
  SignInDispatcher,
  SignInOptions,
  Workbench,
  WorkbenchOptions,
} from "./fixture-types.ts";
export {
  PartnerApi,
  INBOUND_SCOPES,
  type Acting,
  type ApiAnswer,
  type CreateIncidentRequest,
  type GeoPoint,
  type HttpMethod,
  type InboundScope,
} from "./partner-api.ts";
export {
  V3_FLAGS,
  declarationProblem,
  v3Declaration,
  type AboutDeclaration,
  type V3Flag,
  type V3Flags,
  type V3Supports,
} from "./about-declaration.ts";
export {
  EmbeddedReceiver,
  ExternalReceiver,
  type ExternalReceiverOptions,
  type ReceivedRequest,
  type Receiver,
} from "./receivers.ts";
export { matchesRequest, type AdviceMatch, type ReceivedMatch } from "./matchers.ts";
export type { Advice, AdviceRule, ClientControl, ClientFaultOptions, ClientReport, PartnerClient } from "./clients.ts";
export { workbenchApi, WorkbenchApiError, type WorkbenchApi } from "./workbench-api.ts";
export { startEphemeralWorkbench, type EphemeralWorkbench, type ReadyLine, type WorkbenchSeed } from "./ephemeral.ts";
export {
  SYSTEM_CHROMIUM,
  chromiumExecutablePath,
  findChromium,
  type ChromiumSearch,
  type ChromiumSource,
  type FindChromiumOptions,
} from "./find-chromium.js";

/**
 * Playwright's expect with the kit's matchers: `await expect(receiver).toHaveReceived("PATCH", "/label", { incidentId })`,
 * `await expect(clients.client("partner-cad")).toHaveNoAdvice()`.
 */
export const expect = baseExpect.extend({ ...receiverMatchers, ...clientMatchers });
