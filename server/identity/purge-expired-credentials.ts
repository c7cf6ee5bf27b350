// Sign-in tokens, authorization codes, refresh tokens and portal sessions are
// useless once expired; their rows (hashes only) are deleted an hour later, so
// the tables stay small. Refresh tokens are kept while any of their family is
// alive (reuse detection needs the spent ones). Guess-throttle rows go once their last
// failure is a window old (decision 0051), which bounds that table too; so do the two-minute
// codes of `workbench login` (decision 0053).
import type { Clock } from "../platform/clock/clock.ts";
import type { Runtime } from "../runtime.ts";
import type { Worker } from "../platform/worker.ts";
import { purgeGuessThrottle } from "./guess-throttle.ts";
import { warnUnlessOutage } from "../platform/db/outage-log.ts";

const GRACE_MS = 3600_000;
const INTERVAL_MS = 10 * 60_000;

export async function purgeExpiredCredentials(deps: { db: Runtime["db"]; clock: Clock }) {
  const cutoff = new Date(deps.clock.nowMs() - GRACE_MS);
  const [signinTokens, codes, sessions, guessThrottle, cliGrants] = await Promise.all([
    deps.db.signinToken.deleteMany({ where: { expiresAt: { lt: cutoff } } }),
    deps.db.authorizationCode.deleteMany({ where: { expiresAt: { lt: cutoff } } }),
    deps.db.portalSession.deleteMany({ where: { expiresAt: { lt: cutoff } } }),
    purgeGuessThrottle(deps),
    deps.db.workbenchCliGrant.deleteMany({ where: { expiresAt: { lt: cutoff } } }),
  ]);
  const refreshTokens = await deps.db.$executeRaw`
    DELETE FROM "RefreshToken" r
    WHERE NOT EXISTS (SELECT 1 FROM "RefreshToken" a WHERE a."familyId" = r."familyId" AND a."expiresAt" >= ${cutoff})`;
  return {
    signinTokens: signinTokens.count,
    authorizationCodes: codes.count,
    portalSessions: sessions.count,
    refreshTokens,
    guessThrottle,
    cliGrants: cliGrants.count,
  };
}

/** Runs the purge every 10 minutes (workbench clock decides what is expired). */
export async function startCredentialPurgeWorker(runtime: Runtime): Promise<Worker> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = purgeExpiredCredentials(runtime).catch((err: Error) =>
      warnUnlessOutage(runtime.logger, err, "purging expired credentials failed"),
    );
  }, INTERVAL_MS);
  timer.unref();
  return {
    name: "identity-credential-purge",
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
