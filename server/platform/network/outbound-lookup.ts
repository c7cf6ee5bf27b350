// The outbound policy at connect time: a `lookup` for node:http(s) requests that
// resolves the host name and refuses (an error, so no socket ever connects) when
// any address it resolved to is refused by `refuseOutbound`. The addresses
// checked are the ones handed to the socket, so a name that answers differently
// to a second query (DNS rebinding) cannot slip a forbidden address through.
// Literal IP hosts never reach a lookup: `refuseOutbound` checks them before the
// request is made.
import dns, { type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import {
  ALLOW_VARIABLE,
  parseAllowList,
  refuseOutbound,
  type OutboundPolicy,
  type OutboundTarget,
} from "./outbound-policy.ts";
import type { Env } from "../env.ts";

/** The error a refused connection fails with; its message is the one-line refusal. */
export class OutboundRefusedError extends Error {
  readonly code = "EOUTBOUNDREFUSED";
  constructor(message: string) {
    super(message);
    this.name = "OutboundRefusedError";
  }
}

/** A lookup that lets a socket connect only to addresses the policy allows for `url`. */
export function policyLookup(url: URL, target: OutboundTarget, policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      if (!addresses.length)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      for (const a of addresses) {
        const refusal = refuseOutbound(url, target, policy, a.address);
        if (refusal) return callback(new OutboundRefusedError(refusal), "", 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Before storing a URL (integrations set, a conformance run's start): the same checks, with
 * the name resolved once now, so a name that resolves somewhere forbidden is refused at once.
 * A name that does not resolve (yet) is not refused here: the connection will say so.
 */
export async function refuseOutboundNow(
  url: URL,
  target: OutboundTarget,
  policy: OutboundPolicy,
  timeoutMs = 3_000,
): Promise<string | null> {
  const asWritten = refuseOutbound(url, target, policy);
  if (asWritten) return asWritten;
  const addresses = await Promise.race([
    dns.promises.lookup(url.hostname.replace(/^\[|\]$/g, ""), { all: true }).catch(() => [] as LookupAddress[]),
    new Promise<LookupAddress[]>((resolve) => setTimeout(() => resolve([]), timeoutMs).unref()),
  ]);
  for (const a of addresses) {
    const refusal = refuseOutbound(url, target, policy, a.address);
    if (refusal) return refusal;
  }
  return null;
}

const policies = new WeakMap<Env, OutboundPolicy>();

/** The process's policy: the access mode and OUTBOUND_ALLOW (validated by env.ts). */
export function outboundPolicyOf(env: Pick<Env, "ACCESS_MODE" | "OUTBOUND_ALLOW">): OutboundPolicy {
  const key = env as Env;
  let policy = policies.get(key);
  if (!policy) {
    policy = { mode: env.ACCESS_MODE, allow: parseAllowList(env.OUTBOUND_ALLOW.join(",")) };
    policies.set(key, policy);
  }
  return policy;
}

export { ALLOW_VARIABLE };
