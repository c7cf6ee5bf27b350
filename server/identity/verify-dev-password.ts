// The dev portal login form's password (workbench-decisions.md: "Dev portal
// password for every seeded user: workbench"). Users have no passwords of their
// own in the workbench; real partners sign users in passwordlessly.
import { timingSafeEqual } from "node:crypto";

export const DEV_PORTAL_PASSWORD = "workbench";

export function verifyDevPassword(password: string): boolean {
  const a = Buffer.from(password);
  const b = Buffer.from(DEV_PORTAL_PASSWORD);
  return a.length === b.length && timingSafeEqual(a, b);
}
