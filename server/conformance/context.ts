// What every check sees: the receiver under test, the token forge, the sample
// factory, and the run's shared state (what /about declared, whether the valid
// token was accepted, the latency samples) that later checks build on.
import type { Clock, WorkbenchClock } from "../platform/clock/clock.ts";
import type { Env } from "../platform/env.ts";
import type { SigningKeyStore } from "../platform/signing-keys.ts";
import { TokenForge } from "./forge-tokens.ts";
import type { OutboundTargetKind } from "../webhooks/sending/send-request.ts";
import { sendToReceiver, type ReceiverRequest, type ReceiverResponse } from "./receiver-http.ts";
import type { SampleDeps } from "./sample-incidents.ts";
import type { TAbout } from "./about.schema.ts";

export type DiscoveryState = {
  /** GET /about with the legacy PsapConnector credential (the service's first call). */
  legacy: ReceiverResponse;
  /** GET /about with the Publisher credential, when the legacy call was refused with 401/403. */
  publisher?: ReceiverResponse;
  /** The answer the service would use. */
  answer: ReceiverResponse;
  /** The parsed declaration, when it has the right shape. */
  about?: TAbout;
};

export type RunState = {
  discovery?: DiscoveryState;
  /** Set by the valid-token check; refusal checks prove nothing against a receiver that refuses everything. */
  validTokenAccepted?: boolean;
  /** Milliseconds of every delivery made with the valid token and answered (for the p95 check). */
  latenciesMs: number[];
};

export type ConformanceContext = {
  receiverUrl: string;
  agency: { id: string; displayName: string };
  /** Another agency's id, for the wrong-audience forgery. */
  otherAgencyId: string;
  clock: Clock;
  tokens: TokenForge;
  samples: SampleDeps;
  state: RunState;
  send: (request: ReceiverRequest) => Promise<ReceiverResponse>;
};

export type ContextOptions = {
  receiverUrl: string;
  /** The outbound policy's target (embedded, or checked with insecure-dev or not). */
  target: OutboundTargetKind;
  agency: { id: string; displayName: string };
  otherAgencyId: string;
  keys: SigningKeyStore;
  clock: WorkbenchClock;
  env: Env;
};

export function createConformanceContext(options: ContextOptions): ConformanceContext {
  const { receiverUrl, target, agency, otherAgencyId, keys, clock, env } = options;
  const state: RunState = { latenciesMs: [] };
  return {
    receiverUrl,
    agency,
    otherAgencyId,
    clock,
    state,
    tokens: new TokenForge({ keys, clock, env, agencyId: agency.id }),
    samples: { now: () => clock.now(), portalUrl: env.PORTAL_URL, agency },
    send: (request) => sendToReceiver({ receiverUrl, target, clock, request }),
  };
}
