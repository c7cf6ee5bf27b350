// Credentials that are public (written in the seed and the docs) fit a workbench on
// one machine, not one on a network: on a shared workbench they are refused unless
// the operator opts in with ALLOW_DEV_CREDENTIALS=true.
import type { Env } from "../platform/env.ts";

/** The seeded client secrets (prisma/seed.ts). Kept here as values, not imported, so the identity server never imports the seed. */
const SEEDED_CLIENT_SECRETS: ReadonlySet<string> = new Set(["partner-cad-secret", "partner-readonly-secret"]);

export function devCredentialsAllowed(env: Pick<Env, "ACCESS_MODE" | "ALLOW_DEV_CREDENTIALS">): boolean {
  return env.ACCESS_MODE === "local" || env.ALLOW_DEV_CREDENTIALS;
}

export function isSeededClientSecret(secret: string): boolean {
  return SEEDED_CLIENT_SECRETS.has(secret);
}

export const SEEDED_SECRET_REFUSED =
  "Seeded client secrets are disabled on a shared workbench. Rotate this client's secret on the Admin page (Clients, Rotate secret) and use the new one, or start the workbench with ALLOW_DEV_CREDENTIALS=true.";

export const DEV_PASSWORD_REFUSED =
  "The development password is disabled on a shared workbench. Sign in passwordlessly through a partner, or start the workbench with ALLOW_DEV_CREDENTIALS=true.";
