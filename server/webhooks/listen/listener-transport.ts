// A delivery, discovery or conformance request to an integration whose traffic goes through its
// attached listener (send-request.ts's `listener` target): a frame on the connection this process
// holds, answered with the receiver's status, headers and body, under the same total deadline and
// body cap as any attempt and in the same result shape. Not held here: the attempt fails now,
// saying why (not connected, or held by another process), and the delivery rules retry it.
import { describeMissingListener } from "./listener-attachments.ts";
import { listenerRegistry } from "./listener-registry.ts";

type Result = {
  status: number | null;
  headers: Record<string, string> | null;
  bodyExcerpt: string | null;
  body: string | null;
  error: string | null;
  durationMs: number;
};

export type ListenerSend = {
  integrationKey: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  remainingMs: number;
  bodyCapBytes: number;
  signal?: AbortSignal;
};
type Timing = { excerptChars: number; started: number; elapsed: () => number };

export async function sendThroughListener(send: ListenerSend, timing: Timing): Promise<Result> {
  const { started, elapsed } = timing;
  const registry = listenerRegistry();
  const connection = registry.connections.get(send.integrationKey);
  const failed = (error: string): Result => ({
    status: null,
    headers: null,
    bodyExcerpt: null,
    body: null,
    error,
    durationMs: Math.round(elapsed() - started),
  });
  if (!connection?.open) {
    if (!registry.deps) return failed("listener not connected");
    const why = await describeMissingListener(registry.deps, send.integrationKey, registry.processId).catch(
      () => "listener not connected",
    );
    return failed(why);
  }
  const url = new URL(send.url);
  const request = { method: send.method, path: url.pathname + url.search, headers: send.headers, body: send.body };
  const outcome = await connection.forward(request, Math.max(1, Math.round(send.remainingMs)), send.signal);
  if ("failed" in outcome) return failed(outcome.failed);
  const { answer } = outcome;
  if (answer.status === null) return failed(`listener: ${answer.error ?? "the receiver did not answer"}`);
  const bytes = Buffer.from(answer.body ?? "", "utf8");
  const over = bytes.length > send.bodyCapBytes;
  const body = over ? bytes.subarray(0, send.bodyCapBytes).toString("utf8") : (answer.body ?? "");
  return {
    status: answer.status,
    headers: answer.headers ?? {},
    bodyExcerpt: body.slice(0, timing.excerptChars),
    body,
    error:
      answer.error ?? (over ? `response body larger than ${send.bodyCapBytes / 1024} KiB: read stopped there` : null),
    durationMs: Math.round(elapsed() - started),
  };
}
