// One attached listener's life in this process (docs/listen.md, decision 0052), whatever carries
// its frames: attach (or take over) and hold the connection; every LISTENER_HEARTBEAT_MS check the
// caller may still listen (a revoked token detaches within seconds) and that the attachment is
// still this one (another `listen`, maybe through another process, took over); bound the frames;
// on a clean detach give the integration back to its configured URL. A dropped connection keeps
// the attachment: the integration's attempts fail and are retried until a listener is back. Each
// change of where its /about is answered is announced (integration:about-changed), and this
// process's discovery reads the /about again (discovery/discovery-worker.ts).
import type { Runtime } from "../../runtime.ts";
import { webhookEvents } from "../webhook-events.ts";
import * as attachments from "./listener-attachments.ts";
import { ListenerConnection } from "./listener-connection.ts";
import { LISTEN_CLOSE, type TWorkbenchFrame } from "./listener-frames.ts";
import { holdConnection, listenerRegistry, releaseConnection } from "./listener-registry.ts";

/** More frames than this in one second from one listener end its connection (answers come one per request). */
export const MAX_FRAMES_PER_SECOND = 1_000;

export type SessionTransport = { send: (text: string) => void; close: (code: number, reason: string) => void };
export type SessionOptions = {
  integrationKey: string;
  caller: { kind: string; name: string; role: string };
  remoteAddress: string;
  forwardTo: string;
  /** Whether the caller may still listen: null if so, else the one line why not. */
  recheck: () => Promise<string | null>;
};

export async function openListenerSession(runtime: Runtime, options: SessionOptions, transport: SessionTransport) {
  const { integrationKey } = options;
  const { processId } = listenerRegistry();
  const row = await attachments.attachListener(runtime, { ...options, processId });
  let ending: "detached" | "refused" | "taken-over" | null = null;
  const connection = new ListenerConnection(integrationKey, row.attachmentId, {
    send: transport.send,
    end: transport.close,
    violation: (problem) => transport.close(LISTEN_CLOSE.protocolViolation, problem.slice(0, 120)),
  });
  holdConnection(connection)?.end(LISTEN_CLOSE.takenOver, "another listen took over this integration");
  const attached: TWorkbenchFrame = {
    type: "attached",
    integration: integrationKey,
    attachmentId: row.attachmentId,
    since: row.attachedAt.toISOString(),
  };
  transport.send(JSON.stringify(attached));
  runtime.logger.info(
    { integration: integrationKey, caller: options.caller.name, remote: options.remoteAddress },
    "listener attached",
  );
  const rediscover = () => webhookEvents().emit("integration:about-changed", { integrationKey });
  // Its /about first, then whatever waited for it, now (listener-attachments.ts, pullListenerRetriesForward).
  void attachments
    .pullListenerRetriesForward(runtime, integrationKey)
    .then(() => webhookEvents().emit("outbox:wake"))
    .catch((err: Error) => runtime.logger.warn({ err }, "could not pull a listener's retries forward"));
  rediscover();

  const heartbeat = setInterval(() => void check(), attachments.LISTENER_HEARTBEAT_MS);
  async function check() {
    try {
      const refusal = await options.recheck();
      if (ending || !connection.open) return;
      if (refusal) {
        ending = "refused";
        await attachments.detachListener(runtime, row.attachmentId);
        connection.end(LISTEN_CLOSE.credentialRefused, refusal);
        rediscover();
      } else if (!(await attachments.refreshListener(runtime, row.attachmentId, processId))) {
        ending = "taken-over";
        const replaced = await runtime.db.integrationListener.count({ where: { integrationKey } });
        connection.end(
          replaced ? LISTEN_CLOSE.takenOver : LISTEN_CLOSE.detachedElsewhere,
          replaced ? "another listen took over this integration" : "detached on the dashboard",
        );
      }
    } catch (err) {
      runtime.logger.warn({ err, integration: integrationKey }, "listener check failed; trying again");
    }
  }

  let windowStart = performance.now();
  let frames = 0;
  return {
    connection,
    receive(text: string) {
      const at = performance.now();
      if (at - windowStart >= 1_000) [windowStart, frames] = [at, 0];
      if (++frames > MAX_FRAMES_PER_SECOND)
        return connection.end(LISTEN_CLOSE.protocolViolation, "more than 1000 frames a second");
      if (connection.receive(text) !== "detach" || ending) return;
      ending = "detached";
      void attachments
        .detachListener(runtime, row.attachmentId)
        .then((was) => {
          connection.end(LISTEN_CLOSE.detached, "detached");
          runtime.logger.info({ integration: integrationKey }, "listener detached");
          if (was) rediscover();
        })
        .catch((err: Error) => connection.end(LISTEN_CLOSE.stopping, `detach failed: ${err.message}`));
    },
    /** The transport closed, whoever closed it. */
    async closed() {
      clearInterval(heartbeat);
      connection.close("listener disconnected");
      releaseConnection(connection);
      if (ending) return;
      runtime.logger.info({ integration: integrationKey }, "listener disconnected; its integration stays routed");
      await attachments
        .markListenerDisconnected(runtime, row.attachmentId)
        .catch((err: Error) => runtime.logger.warn({ err }, "could not mark a listener disconnected"));
    },
  };
}
export type ListenerSession = Awaited<ReturnType<typeof openListenerSession>>;

/** This process is stopping: its listeners stay attached, and reconnect elsewhere (or to it once back). */
export async function closeListeners(runtime: Pick<Runtime, "db" | "clock">): Promise<void> {
  const open = [...listenerRegistry().connections.values()];
  for (const connection of open) connection.end(LISTEN_CLOSE.stopping, "the workbench is stopping");
  await Promise.all(open.map((c) => attachments.markListenerDisconnected(runtime, c.attachmentId)));
}
