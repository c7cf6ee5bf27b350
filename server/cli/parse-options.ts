// Options the CLI can check before calling the workbench, where it knows the
// bounds the server's schema sets: a bad value fails at once, in the same one
// line a server-side refusal prints (`--limit: got 100000, takes a whole number
// from 1 to 5000`), with exit code 2 (a usage error).

/** A usage error: run() prints its message as it is and exits 2. */
export class CliUsageError extends Error {}

/** What the user typed: a number as is, anything else quoted, shortened. */
const shown = (text: string) => {
  const quoted = /^-?\d+(\.\d+)?$/.test(text) ? text : JSON.stringify(text);
  return quoted.length > 60 ? `${quoted.slice(0, 59)}…` : quoted;
};

export function usageError(option: string, got: string, takes: string): CliUsageError {
  return new CliUsageError(`${option}: got ${shown(got)}, takes ${takes}`);
}

/** A whole number from `min` to `max`, or undefined when the option was not given. */
export function wholeNumber(option: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === "" || !Number.isInteger(n) || n < min || n > max)
    throw usageError(option, text, `a whole number from ${min} to ${max}`);
  return n;
}

/** One of `values`, or undefined when the option was not given. */
export function oneOf<const T extends string>(
  option: string,
  text: string | undefined,
  values: readonly T[],
): T | undefined {
  if (text === undefined) return undefined;
  if (!(values as readonly string[]).includes(text)) throw usageError(option, text, `one of ${values.join(", ")}`);
  return text as T;
}
