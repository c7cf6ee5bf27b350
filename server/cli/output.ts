/** Every command prints either human text or, with --json, one JSON document on stdout. */
export type OutputMode = { json: boolean };

export function print(mode: OutputMode, value: unknown, human: () => string): void {
  process.stdout.write(mode.json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

export function fail(mode: OutputMode, message: string, exitCode = 1): never {
  if (mode.json) process.stdout.write(`${JSON.stringify({ error: message }, null, 2)}\n`);
  else process.stderr.write(`workbench: ${message}\n`);
  process.exit(exitCode);
}
