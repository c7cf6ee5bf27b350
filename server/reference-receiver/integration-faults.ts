// `workbench receiver fault KEY --mode …`: an embedded receiver's misbehaviour, stored as its
// integration's receiver-side fault (directory/integration-faults.ts). The engine's own network
// fault, for any integration, is the engine's (webhooks/admin/set-dispatcher-fault.ts).
import { storeFault, invalidFault, type FaultState, type SetFaultOptions } from "../directory/integration-faults.ts";
import { parseReceiverFaultMode, RECEIVER_FAULT_MODES } from "./faults.ts";
import { receiverEvents } from "./receiver-events.ts";
import { requireEmbeddedReceiver } from "./receiver-capabilities.ts";

export async function setReceiverFault(options: SetFaultOptions): Promise<FaultState> {
  await requireEmbeddedReceiver({ db: options.db, key: options.key });
  if (!parseReceiverFaultMode(options.mode))
    throw invalidFault("mode", `"${options.mode}" is not a fault mode: use ${RECEIVER_FAULT_MODES}.`);
  const state = await storeFault(options, "receiver");
  receiverEvents.emit("receiver:fault-changed", { integrationKey: options.key, mode: options.mode });
  return state;
}
