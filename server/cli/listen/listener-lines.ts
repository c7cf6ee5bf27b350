// What `workbench listen` prints: a first line when attached, one line per forwarded request
// (time, method, path, status, duration), and why it reconnects or stops. With --json, one JSON
// object a line (a stream, not one document: the command runs until stopped).
import type { TListenerAnswer } from "../../webhooks/listen/listener-frames.ts";

export type ListenerLine =
  | { kind: "attached"; integration: string; forwardTo: string }
  | { kind: "forwarded"; method: string; path: string; answer: TListenerAnswer }
  | { kind: "reconnecting"; message: string; inMs: number }
  | { kind: "detached"; integration: string }
  | { kind: "refused" | "ended"; message: string };
export type ListenerPrinter = (line: ListenerLine) => void;

/** The real-time clock of the user's terminal (the CLI's own, not the workbench's). */
const timeNow = () => new Date().toISOString();

export function printListenerLine(json: boolean, line: ListenerLine): void {
  const time = timeNow();
  const error = line.kind === "refused" || line.kind === "ended";
  const out = (text: string): void => void (error && !json ? process.stderr : process.stdout).write(`${text}\n`);
  if (json) return out(JSON.stringify(toJson(time, line)));
  if (line.kind === "attached")
    return out(
      `${time}  listening: ${line.integration}'s requests are forwarded to ${line.forwardTo} (Ctrl-C detaches)`,
    );
  if (line.kind === "forwarded") {
    const { answer } = line;
    const status = answer.status === null ? "no answer" : String(answer.status);
    const detail = answer.error ? `  (${answer.error})` : "";
    return out(`${time}  ${line.method.padEnd(5)} ${line.path}  ${status}  ${answer.forwardMs ?? 0} ms${detail}`);
  }
  if (line.kind === "detached")
    return out(`${time}  detached: ${line.integration}'s requests go to its configured receiver URL again`);
  if (line.kind === "reconnecting")
    return out(`${time}  disconnected (${line.message}); reconnecting in ${(line.inMs / 1000).toFixed(1)} s`);
  out(`workbench: ${line.message}`);
}

function toJson(time: string, line: ListenerLine) {
  if (line.kind === "forwarded")
    return {
      time,
      event: "forwarded",
      method: line.method,
      path: line.path,
      status: line.answer.status,
      durationMs: line.answer.forwardMs ?? 0,
      error: line.answer.error,
    };
  if (line.kind === "refused" || line.kind === "ended") return { time, event: line.kind, error: line.message };
  return { time, event: line.kind, ...line, kind: undefined };
}
