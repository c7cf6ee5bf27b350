// `workbench receiver network-fault KEY --mode …` and the Receivers page: sets the dispatcher-side
// network fault of an integration (delivery/dispatcher-fault.ts), stored as its integration's
// dispatcher-side fault (directory/integration-faults.ts). This process's delivery targets forget
// theirs at once (dispatcher:fault-changed); another process's within its cache's second.
import { invalidFault, storeFault, type FaultState, type SetFaultOptions } from "../../directory/integration-faults.ts";
import { AppError } from "../../platform/errors.ts";
import { DISPATCHER_FAULT_MODES } from "../delivery/dispatcher-fault.ts";
import { webhookEvents } from "../webhook-events.ts";

export async function setDispatcherNetworkFault(options: SetFaultOptions): Promise<FaultState> {
  if (!(await options.db.integration.findUnique({ where: { key: options.key } })))
    throw new AppError("IntegrationNotFound", `No integration "${options.key}".`);
  if (!(DISPATCHER_FAULT_MODES as readonly string[]).includes(options.mode))
    throw invalidFault("mode", `"${options.mode}" is not a network fault: use ${DISPATCHER_FAULT_MODES.join("|")}.`);
  const state = await storeFault(options, "dispatcher");
  webhookEvents().emit("dispatcher:fault-changed", { integrationKey: options.key, mode: options.mode });
  return state;
}
