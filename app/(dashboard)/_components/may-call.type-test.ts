import type { ProcedurePath } from "./may-call";
const ok: ProcedurePath[] = ["deliveries.resend", "access.members.list", "clock.advance"];
// @ts-expect-error -- not a procedure
const bad: ProcedurePath = "deliveries.nope";
// @ts-expect-error -- the portal's procedures are not the dashboard's
const portal: ProcedurePath = "portal.incident";
export { ok, bad, portal };
