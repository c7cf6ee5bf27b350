// The kit is standalone (it imports nothing of the workbench), so it keeps copies of what it shares
// with the server: the /about declaration, the v3 flags, the inbound scopes, fault modes, the
// create-incident body, the ready line of `workbench up`, the seed and the client report's advice. Each copy is held to its original here: the type-level
// checks fail `tsc` (npm run typecheck), the value checks fail vitest.
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { readyLine } from "../../../server/cli/commands/ephemeral.ts";
import { EPHEMERAL_SEED } from "../../../server/cli/ephemeral/start-ephemeral-workbench.ts";
import type { ZCreateIncidentRequest } from "../../../server/http/inbound/operations/create-incident.schema.ts";
import type { ReceiverFaultMode as ServerFaultMode } from "../../../server/reference-receiver/faults.ts";
import type { DispatcherFaultMode } from "../../../server/webhooks/delivery/dispatcher-fault.ts";
import { parseReceiverFaultMode } from "../../../server/reference-receiver/faults.ts";
import {
  INBOUND_SCOPES as SERVER_INBOUND_SCOPES,
  type InboundScope as ServerInboundScope,
} from "../../../server/identity/scopes.ts";
import {
  ZAboutDeclaration,
  flattenSupports,
  type TAboutDeclaration,
} from "../../../server/webhook-contracts/v3/capabilities.schema.ts";
import {
  V3_FLAGS as SERVER_V3_FLAGS,
  type V3Flag as ServerV3Flag,
} from "../../../server/webhook-contracts/v3/capability-flags.ts";
import { V3_FLAGS, v3Declaration, type AboutDeclaration, type V3Flag } from "./about-declaration.ts";
import type { ReadyLine } from "./ephemeral.ts";
import type { NetworkFaultMode, ReceiverFaultMode } from "./fixture-types.ts";
import { SEED } from "./fixtures.ts";
import { INBOUND_SCOPES, type CreateIncidentRequest, type InboundScope } from "./partner-api.ts";
import type { Advice, AdviceRule, ClientReport } from "./clients.ts";
import {
  ADVICE_RULE_IDS,
  type Advice as ServerAdvice,
  type AdviceRule as ServerAdviceRule,
} from "../../../server/client-calls/advice/advice-rules.ts";
import type { ClientReport as ServerClientReport } from "../../../server/client-calls/list-calls.ts";

/**
 * A type without index signatures, all the way down. The server's schema takes unknown members
 * (a newer 3.x receiver may add some: z.looseObject); the kit's type leaves them out on purpose,
 * so that a misspelt flag is a compile error in a QA test.
 */
type Known<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T as string extends K ? never : number extends K ? never : K]: Known<T[K]> }
    : T;

describe("the kit's copies of the server's definitions", () => {
  it("AboutDeclaration is the server's /about schema, without its room for unknown members", () => {
    expectTypeOf<AboutDeclaration>().toEqualTypeOf<Known<TAboutDeclaration>>();
    // …and what v3Declaration builds is a declaration the server accepts, with exactly the flags asked for.
    const all = ZAboutDeclaration.parse(v3Declaration());
    expect(flattenSupports(all.supports)).toEqual(SERVER_V3_FLAGS);
    const noLabel = ZAboutDeclaration.parse(v3Declaration({ labelChanged: false, "caller.chat.activated": false }));
    expect(flattenSupports(noLabel.supports)).toEqual(
      SERVER_V3_FLAGS.filter((f) => f !== "labelChanged" && f !== "caller.chat.activated"),
    );
  });

  it("the v3 flags are the server's, in its order", () => {
    expectTypeOf<V3Flag>().toEqualTypeOf<ServerV3Flag>();
    expect(V3_FLAGS).toEqual(SERVER_V3_FLAGS);
  });

  it("the inbound scopes are the server's, in its order", () => {
    expectTypeOf<InboundScope>().toEqualTypeOf<ServerInboundScope>();
    expect(INBOUND_SCOPES).toEqual(SERVER_INBOUND_SCOPES);
  });

  it("the fault modes are the server's", () => {
    type Simple<M> = M extends `${string}:${number}` ? never : M;
    expectTypeOf<Simple<ReceiverFaultMode>>().toEqualTypeOf<Exclude<ServerFaultMode["kind"], "slow" | "flaky">>();
    expectTypeOf<NetworkFaultMode>().toEqualTypeOf<DispatcherFaultMode>();
    for (const mode of ["slow:2000", "flaky:30"] satisfies ReceiverFaultMode[])
      expect(parseReceiverFaultMode(mode)).toBeDefined();
  });

  it("CreateIncidentRequest is POST /v1/incidents' body", () => {
    expectTypeOf<CreateIncidentRequest>().toEqualTypeOf<z.input<typeof ZCreateIncidentRequest>>();
  });

  it("ReadyLine has every field of `workbench up`'s ready line, typed as the CLI prints it", () => {
    type Printed = ReturnType<typeof readyLine>;
    expectTypeOf<keyof ReadyLine>().toEqualTypeOf<keyof Printed>();
    expectTypeOf<Printed>().toExtend<ReadyLine>();
  });

  it("the advice rules and the client report are the server's", () => {
    expectTypeOf<AdviceRule>().toEqualTypeOf<ServerAdviceRule>();
    expectTypeOf<Advice>().toEqualTypeOf<ServerAdvice>();
    expectTypeOf<keyof ClientReport>().toExtend<keyof ServerClientReport>();
    expectTypeOf<Pick<ServerClientReport, keyof ClientReport>>().toExtend<ClientReport>();
    expect(ADVICE_RULE_IDS.length).toBe(13);
  });

  it("SEED is the seed's ids and credentials", () => {
    expect(SEED).toEqual(EPHEMERAL_SEED);
  });
});
