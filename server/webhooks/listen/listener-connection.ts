// The workbench's side of one attached listener, whatever carries its frames (the HTTP layer gives
// it a WebSocket): requests go out with an id, and only an answer to an id still outstanding is
// believed (accepted once, then forgotten). A late answer to a request whose deadline passed is
// dropped; an answer to an id never sent, or a frame that does not parse, ends the connection.
import { parseListenerFrame, type TListenerAnswer, type TWorkbenchFrame } from "./listener-frames.ts";

export type ListenerRequest = { method: string; path: string; headers: Record<string, string>; body: string | null };
export type ListenerOutcome = { answer: TListenerAnswer } | { failed: string };

type Pending = { resolve: (o: ListenerOutcome) => void; timer: NodeJS.Timeout };

export class ListenerConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedWith: string | null = null;

  constructor(
    readonly integrationKey: string,
    readonly attachmentId: string,
    private readonly transport: {
      send: (text: string) => void;
      end: (code: number, reason: string) => void;
      violation: (problem: string) => void;
    },
  ) {}

  /** Ends the connection from this side: outstanding requests fail with `reason`, the transport closes with `code`. */
  end(code: number, reason: string): void {
    this.close(`listener disconnected: ${reason}`);
    this.transport.end(code, reason);
  }

  get open(): boolean {
    return this.closedWith === null;
  }

  /** Sends one request and waits for its answer, at most `deadlineMs`. Never rejects. */
  forward(request: ListenerRequest, deadlineMs: number, signal?: AbortSignal): Promise<ListenerOutcome> {
    if (this.closedWith) return Promise.resolve({ failed: this.closedWith });
    const id = this.nextId++;
    return new Promise<ListenerOutcome>((resolve) => {
      const done = (outcome: ListenerOutcome) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", stop);
        resolve(outcome);
      };
      const timer = setTimeout(
        () => done({ failed: `timeout: the listener did not answer within ${deadlineMs} ms` }),
        deadlineMs,
      );
      const stop = () => done({ failed: "stopped: the caller gave up (its process is stopping)" });
      signal?.addEventListener("abort", stop, { once: true });
      this.pending.set(id, { resolve: done, timer });
      const frame: TWorkbenchFrame = { type: "request", id, ...request, deadlineMs };
      try {
        this.transport.send(JSON.stringify(frame));
      } catch (e) {
        done({ failed: `listener connection failed: ${(e as Error).message}` });
      }
    });
  }

  /** One frame from the listener. Returns "detach" when it asks to detach. */
  receive(text: string): "detach" | "ok" {
    const parsed = parseListenerFrame(text);
    if ("problem" in parsed) return this.violate(`the listener sent ${parsed.problem}`);
    const { frame } = parsed;
    if (frame.type === "detach") return "detach";
    const entry = this.pending.get(frame.id);
    if (entry) entry.resolve({ answer: frame });
    // Not outstanding: answered already, or its deadline passed (dropped); never sent: a violation.
    else if (frame.id >= this.nextId) return this.violate(`the listener answered request ${frame.id}, never sent`);
    return "ok";
  }

  /** The connection is gone: every outstanding request fails with `reason`. */
  close(reason: string): void {
    if (this.closedWith) return;
    this.closedWith = reason;
    for (const [, p] of [...this.pending]) p.resolve({ failed: reason });
  }

  get outstanding(): number {
    return this.pending.size;
  }

  private violate(problem: string): "ok" {
    this.transport.violation(problem);
    this.close(`listener connection closed: ${problem}`);
    return "ok";
  }
}
