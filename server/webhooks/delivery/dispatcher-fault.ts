// A dispatcher-side network fault (Receivers page, `workbench receiver network-fault`): the network
// between the platform and a receiver fails, for any integration, external receivers included. The
// deliverer reads it with the integration's delivery target (load-delivery-target.ts) and, while
// it is active, sends nothing: the attempt fails as the network would have made it fail.
import { describeFault, type StoredFault } from "../../directory/integration-faults.ts";
import { unsent, type SendResult } from "../sending/send-request.ts";

/** "refused": the connection is refused; "timeout": no answer within the attempt's deadline. */
export const DISPATCHER_FAULT_MODES = ["ok", "refused", "timeout"] as const;
export type DispatcherFaultMode = (typeof DISPATCHER_FAULT_MODES)[number];

/** The fault in force at `nowMs`: "ok" unless an active refused/timeout fault. */
export function dispatcherFaultAt(fault: StoredFault | null, nowMs: number): DispatcherFaultMode {
  const state = describeFault(fault, nowMs);
  return state.state === "active" ? (state.mode as DispatcherFaultMode) : "ok";
}

/** The attempt's result under an active fault, as the network would have failed it. */
export function simulatedFailure(mode: Exclude<DispatcherFaultMode, "ok">, timeoutMs: number): SendResult {
  return mode === "refused"
    ? unsent("ECONNREFUSED: connection refused (simulated dispatcher-side network fault)", 0)
    : unsent(`timeout: no response within ${timeoutMs} ms (simulated dispatcher-side network fault)`, timeoutMs);
}
