// {receiver_url} of an integration. A stored path ("/receivers/north-psap")
// names an embedded receiver on this workbench's own origin (PUBLIC_URL);
// anything else is the absolute URL an integrator registered, reached under the
// outbound policy (platform/network/outbound-policy.ts).
import type { Env } from "../../platform/env.ts";
import { isLoopbackHost } from "../../platform/network/loopback.ts";
import { outboundPolicyOf } from "../../platform/network/outbound-lookup.ts";
import type { OutboundTargetKind } from "./send-request.ts";

/** A stored path of an embedded receiver: /receivers/{key}. */
const EMBEDDED_PATH = /^\/receivers\/([A-Za-z0-9_-]{1,64})$/;

export function resolveReceiverUrl(stored: string, publicUrl: string): string {
  const base = stored.startsWith("/") ? `${publicUrl.replace(/\/+$/, "")}${stored}` : stored;
  return base.replace(/\/+$/, "");
}

/** Whether a stored receiver URL is one of this workbench's embedded receivers (delivered to on PUBLIC_URL, outside the outbound policy). */
export function isEmbeddedReceiver(stored: string): boolean {
  return EMBEDDED_PATH.test(stored);
}

/**
 * The embedded receiver key an absolute URL names when it is on this workbench's own origin
 * (PUBLIC_URL) — `integrations list` prints the embedded receivers that way — else null. With a
 * loopback PUBLIC_URL, any loopback name on the same scheme and port is the same origin
 * (localhost and 127.0.0.1 are one server).
 */
export function embeddedReceiverKeyOf(url: URL, publicUrl: string): string | null {
  const own = new URL(publicUrl);
  const sameOrigin =
    url.origin === own.origin ||
    (url.protocol === own.protocol &&
      url.port === own.port &&
      isLoopbackHost(url.hostname) &&
      isLoopbackHost(own.hostname));
  if (!sameOrigin || url.search || url.hash || url.username || url.password) return null;
  const ownPath = own.pathname.replace(/\/+$/, "");
  if (!url.pathname.startsWith(`${ownPath}/`)) return null;
  return EMBEDDED_PATH.exec(url.pathname.slice(ownPath.length).replace(/\/+$/, ""))?.[1] ?? null;
}

/** The integration whose attached listener a routed URL ("listen:north-psap": listener-attachments.ts) names, else null. */
export function listenedKeyOf(stored: string): string | null {
  return LISTENED_URL.exec(stored)?.[1] ?? null;
}
const LISTENED_URL = /^listen:([A-Za-z0-9_-]{1,64})$/;

/**
 * Where an integration's requests go, and under which rules: embedded (PUBLIC_URL, trusted), checked
 * by the outbound policy, or through its attached listener (the URL its routing gave: "listen:KEY").
 */
export function receiverTarget(
  stored: string,
  insecureDev: boolean,
  env: Pick<Env, "PUBLIC_URL" | "ACCESS_MODE" | "OUTBOUND_ALLOW">,
): { baseUrl: string; target: OutboundTargetKind } {
  const listened = listenedKeyOf(stored);
  if (listened)
    return { baseUrl: `listen://${listened}`, target: { kind: "listener", insecureDev, integrationKey: listened } };
  const baseUrl = resolveReceiverUrl(stored, env.PUBLIC_URL);
  return {
    baseUrl,
    target: isEmbeddedReceiver(stored)
      ? { kind: "embedded", insecureDev }
      : { kind: "checked", insecureDev, policy: outboundPolicyOf(env) },
  };
}
