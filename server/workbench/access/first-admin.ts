// The first admin of a shared workbench: from configuration (WORKBENCH_ADMIN_PASSWORD
// makes the member `admin` with that password at every start), or else, while no
// enabled admin exists, a one-time setup credential printed to the terminal at
// start. It is written straight to stdout, never through the logger (no secret is
// ever logged), lives in this process's memory only (its SHA-256), and is spent by
// the first successful use of /auth/setup.
import { timingSafeEqual } from "node:crypto";
import type { Runtime } from "../../runtime.ts";
import { generateOpaqueValue, hashOpaqueValue } from "../../identity/hash-opaque-value.ts";
import { processSingleton } from "../../platform/process-singleton.ts";
import { hasEnabledAdmin, upsertAdmin } from "./members.ts";

export const CONFIGURED_ADMIN_USERNAME = "admin";

// The pending credential's SHA-256, one per process (Next's bundle serves /auth/setup too).
const pending = processSingleton<{ hash?: string }>("setup-credential", () => ({}));

export type FirstAdminOutcome = "local" | "configured" | "admin-exists" | "setup-credential";

export async function prepareFirstAdmin(
  runtime: Pick<Runtime, "db" | "clock" | "env">,
  print: (text: string) => void = (text) => process.stdout.write(text),
): Promise<FirstAdminOutcome> {
  const { env } = runtime;
  if (env.ACCESS_MODE === "local") return "local";
  if (env.WORKBENCH_ADMIN_PASSWORD) {
    await upsertAdmin({ ...runtime, username: CONFIGURED_ADMIN_USERNAME, password: env.WORKBENCH_ADMIN_PASSWORD });
    return "configured";
  }
  if (await hasEnabledAdmin(runtime)) return "admin-exists";
  const credential = generateOpaqueValue();
  pending.hash = hashOpaqueValue(credential);
  print(
    `\nThis shared workbench has no admin yet. Open ${env.PUBLIC_URL}/auth/setup and enter this one-time setup code\n` +
      `to choose the first admin's password (it works once, and only until this process stops):\n\n    ${credential}\n\n`,
  );
  return "setup-credential";
}

/** True once: the first call with the printed credential spends it. */
export function consumeSetupCredential(presented: string): boolean {
  const expected = pending.hash;
  if (!expected || presented.length === 0 || presented.length > 100) return false;
  const a = Buffer.from(hashOpaqueValue(presented));
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  pending.hash = undefined;
  return true;
}

export function setupCredentialPending(): boolean {
  return Boolean(pending.hash);
}
