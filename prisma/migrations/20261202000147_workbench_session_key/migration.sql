-- A dashboard session's key (docs/decisions/0071): the page that signed in holds it and sends it
-- with every data call and state change, so the cookie alone, which another port of the host can
-- read or set, is not enough. Sessions from before have none and must sign in again.
-- AlterTable
ALTER TABLE "WorkbenchSession" ADD COLUMN     "keyHash" TEXT;

