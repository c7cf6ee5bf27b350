// The fixtures' public types: what a QA engineer's editor shows for each fixture and option. The
// fault modes are copies of the server's (server/reference-receiver/faults.ts, server/webhooks/delivery/dispatcher-fault.ts), guarded by
// server-copies.test.ts.
import type { Page } from "@playwright/test";
import type { V3Flags } from "./about-declaration.ts";
import type { Duration } from "./duration.ts";
import type { WorkbenchSeed } from "./ephemeral.ts";
import type { EmbeddedReceiver, ExternalReceiver, ExternalReceiverOptions } from "./receivers.ts";
import type { WorkbenchApi } from "./workbench-api.ts";

export type Workbench = {
  /** Its origin: the portal, the dashboard, /connect, /v1 and the embedded receivers all live there. */
  url: string;
  /** The seed's fixed ids (agencies, users) and the partner clients' credentials. */
  seed: WorkbenchSeed;
  /** The workbench's own API (what its dashboard and CLI use). */
  api: WorkbenchApi;
  /** True when the kit started it (and stops it with the worker). */
  ephemeral: boolean;
};

/** The seed's integrations, each with an embedded receiver at /receivers/{key}: North PSAP's (v3), Central EMS's (v3), Fire & Rescue's (legacy v2). */
export type IntegrationKey = "north-psap" | "central-ems" | "fire-rescue";
/** An integration's key: one of the seed's (suggested by the editor), or another the workbench has. */
export type AnyIntegrationKey = IntegrationKey | (string & {});

export type ClockControl = {
  /** Moves the workbench clock ahead (retries come due, the hour runs out): forward only, at most 7 days a jump. */
  advance(by: Duration): Promise<void>;
  /** The workbench's time now. */
  now(): Promise<Date>;
};

/**
 * An embedded receiver's misbehaviour:
 * - "http-500", "http-503": answer that status;
 * - "http-201": record and apply the event but answer 201 (only 200 accepts, so the platform retries);
 * - "timeout": hold the request without answering until the platform gives up;
 * - "slow:<ms>": answer after that many milliseconds, e.g. "slow:2000";
 * - "flaky:<percent>": answer 503 to that share of requests at random, e.g. "flaky:30";
 * - "reject-token": answer 401, as if the token were invalid;
 * - "down": drop the connection without an answer, as if the host were unreachable;
 * - "ok": behave again.
 */
export type ReceiverFaultMode =
  | "ok"
  | "http-500"
  | "http-503"
  | "http-201"
  | "timeout"
  | "reject-token"
  | "down"
  | `slow:${number}`
  | `flaky:${number}`;

/** A network fault on the platform's side, for any integration: the connection is "refused", or gets no answer ("timeout"); "ok" ends it. */
export type NetworkFaultMode = "ok" | "refused" | "timeout";

/** An ISO 8601 timestamp on the workbench clock, e.g. "2026-11-25T08:00:00Z". */
export type IsoTimestamp = `${number}-${number}-${number}T${string}`;

export type FaultOptions = {
  /** How long the fault lasts, on the workbench clock (default: until changed). */
  for?: Duration;
  /** When it starts: "+5m" from now, or a timestamp on the workbench clock (default: now). */
  at?: `+${Exclude<Duration, number>}` | IsoTimestamp;
};

export type ReceiverControl = {
  /** An embedded receiver, to assert on what it recorded: `expect(receivers.embedded("north-psap")).toHaveReceived(…)`. */
  embedded(key: AnyIntegrationKey): EmbeddedReceiver;
  /** Breaks an embedded receiver (restored after the test): `fault("north-psap", "http-503", { for: "10m" })`. */
  fault(key: AnyIntegrationKey, mode: ReceiverFaultMode, options?: FaultOptions): Promise<void>;
  /** Fails the network on the platform's side for any integration, external receivers included (restored after the test). */
  networkFault(key: AnyIntegrationKey, mode: NetworkFaultMode, options?: FaultOptions): Promise<void>;
  /**
   * Changes flags of what an embedded receiver declares on /about, e.g. `{ labelChanged: false }`;
   * flags not named keep their value. The platform rediscovers; restored after the test.
   */
  capabilities(key: AnyIntegrationKey, flags: V3Flags, options?: CapabilityOptions): Promise<void>;
};

export type CapabilityOptions = {
  /** The contract version to declare too: "3.0" (any 3.x) for v3, "2.0" for the legacy contract. */
  version?: string;
};

export type ExternalReceiverControl = {
  /**
   * Starts a receiver of the test's own, points an integration at it (default north-psap) and
   * resolves once the platform has read its /about (within 15 s); the integration's receiver is
   * restored after the test. `{ declaration: v3Declaration({ labelChanged: false }) }` declares
   * less; `{ status: 503 }` starts it refusing.
   */
  attach(integration?: AnyIntegrationKey, options?: ExternalReceiverOptions): Promise<ExternalReceiver>;
  /** After `receiver.declare(...)`: the platform reads /about again now; resolves once it has. */
  rediscover(integration?: AnyIntegrationKey): Promise<void>;
};

/** Options of `test.use({ … })` or the config's `use`. */
export type WorkbenchOptions = {
  /** A running workbench to use instead of an ephemeral one (default: WORKBENCH_URL). */
  workbenchUrl: string | undefined;
  /** Its API token, for a shared workbench (default: WORKBENCH_TOKEN). */
  workbenchToken: string | undefined;
};

export type SignInOptions = {
  /** A seeded user's name (default dispatcher.north). */
  username?: string;
  /** The agency to sign in for (default North PSAP: `SEED.agencies.northPsap`). */
  agencyId?: string;
  /** A portal path to land on (default /portal/incidents). */
  returnUrl?: string;
};

/** Signs `page` in to the portal as a seeded user, the passwordless way (GetUserSigninToken → LoginUserByToken). */
export type SignInDispatcher = (page: Page, options?: SignInOptions) => Promise<void>;
