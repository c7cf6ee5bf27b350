// A receiver URL as a user gives it (`integrations set`, the Admin page, a
// conformance run), checked before it is stored or used: an embedded receiver
// of this workbench (a path /receivers/{key}, or the absolute URL on the own
// origin that `integrations list` prints), or an external URL the outbound
// policy allows — the host as written and, resolved now, its addresses (the
// same checks run again on every connection). One-line refusals, as AppErrors.
import { AppError, type AppErrorCode } from "../../platform/errors.ts";
import type { Env } from "../../platform/env.ts";
import { outboundPolicyOf, refuseOutboundNow } from "../../platform/network/outbound-lookup.ts";
import { embeddedReceiverKeyOf } from "./receiver-url.ts";

export type ValidReceiverUrl =
  /** One of this workbench's embedded receivers: stored as its path, delivered to on PUBLIC_URL. */
  | { kind: "embedded"; key: string; path: string; url: string }
  /** An integrator's receiver: the base URL without a trailing slash. */
  | { kind: "external"; url: string };

type Options = {
  input: string;
  insecureDev: boolean;
  env: Pick<Env, "PUBLIC_URL" | "ACCESS_MODE" | "OUTBOUND_ALLOW">;
  /** The form field the message belongs to. */
  field: string;
  /** The one embedded receiver the URL may name (an integration's own), or any when absent. */
  embeddedKey?: string;
};

export async function validateReceiverUrl(options: Options): Promise<ValidReceiverUrl> {
  const { env, field } = options;
  const input = options.input.trim();
  const invalid = (code: AppErrorCode, detail: string) => new AppError(code, detail, [{ field, message: detail }]);
  const publicUrl = env.PUBLIC_URL.replace(/\/+$/, "");
  const embedded = (key: string): ValidReceiverUrl => {
    if (options.embeddedKey !== undefined && key !== options.embeddedKey) {
      throw invalid(
        "ValidationFailed",
        `refused: a receiver on this workbench must be the integration's own embedded receiver, /receivers/${options.embeddedKey}`,
      );
    }
    return { kind: "embedded", key, path: `/receivers/${key}`, url: `${publicUrl}/receivers/${key}` };
  };
  if (input.startsWith("/")) {
    const key = /^\/receivers\/([A-Za-z0-9_-]{1,64})\/*$/.exec(input)?.[1];
    if (!key)
      throw invalid(
        "ValidationFailed",
        `refused: "${input}" is not an http(s) URL, and the only paths on this workbench are its embedded receivers (/receivers/{key})`,
      );
    return embedded(key);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid("ValidationFailed", `refused: "${input.slice(0, 200)}" is not an http(s) URL`);
  }
  const ownKey = embeddedReceiverKeyOf(url, publicUrl);
  if (ownKey) return embedded(ownKey);
  const refusal = await refuseOutboundNow(url, { insecureDev: options.insecureDev }, outboundPolicyOf(env));
  if (refusal) throw invalid("OutboundRefused", refusal);
  if (url.search || url.hash)
    throw invalid("ValidationFailed", "refused: a receiver URL is a base URL: no query string or fragment");
  return { kind: "external", url: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}
