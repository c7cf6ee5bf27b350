// Structured logs (pino). Secrets never reach them: the spec names client_secret,
// access tokens, sign-in tokens and the LoginUserByToken redirect URL as values
// that must not be logged. Two defences:
//  1. redaction of the paths where such values can sit in a log object;
//  2. request logs carry the path only, never the query string (sign-in tokens
//     travel in LoginUserByToken's query), and never bodies.
import pino, { type DestinationStream, type Logger } from "pino";

export const REDACTED = "[redacted]";

export const REDACT_PATHS = [
  "client_secret",
  "*.client_secret",
  "clientSecret",
  "*.clientSecret",
  "secret",
  "*.secret",
  "password",
  "*.password",
  "access_token",
  "*.access_token",
  "refresh_token",
  "*.refresh_token",
  "accessToken",
  "*.accessToken",
  "token",
  "*.token",
  "signinToken",
  "*.signinToken",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  'headers["authorization"]',
  "cookie",
  "*.cookie",
  "headers.cookie",
  "*.headers.cookie",
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
  "redirectUrl",
  "*.redirectUrl",
  "returnUrl",
  "*.returnUrl",
  "location",
  "*.location",
];

export function createLogger(options: { level?: string; destination?: DestinationStream; name?: string } = {}): Logger {
  return pino(
    {
      name: options.name ?? "workbench",
      level: options.level ?? "info",
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      base: undefined,
    },
    options.destination,
  );
}

/**
 * The server's standard output, written off the event loop: a line goes to a write on libuv's
 * pool, and the lines logged while that write runs go out together in the next one. A slow reader
 * (a terminal scrolling two lines per change under load) then holds back the log, not the server.
 * pino flushes what is left synchronously when the process exits.
 */
export function stdoutDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}

/** Where the process logs: `LOG_FILE` (appended, its folder made), else the standard output; both written off the event loop. */
export function logDestination(env: { LOG_FILE?: string }): DestinationStream {
  if (!env.LOG_FILE) return stdoutDestination();
  return pino.destination({ dest: env.LOG_FILE, sync: false, append: true, mkdir: true });
}

/** A URL fit for a log line: origin and path, no query or fragment (where tokens travel). */
export function loggableUrl(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

export type { Logger };
