// Ctrl-C and SIGTERM for the CLI's long-running commands (`listen`, `up`): the first asks the
// command to stop cleanly, a later one stops it at once (exit 130, as a shell reports Ctrl-C).
//
// One keypress can arrive twice: the terminal signals the whole foreground process group, and a
// runner in that group (npm, tsx's CLI) forwards its own copy to its child. Signals within
// SAME_SIGNAL_MS of the first are taken as that same request, so the clean stop is not cut short.

/** Signals this soon after the first are the same Ctrl-C delivered twice. */
export const SAME_SIGNAL_MS = 1_000;
export const FORCED_EXIT_CODE = 130;

type SignalSource = Pick<NodeJS.Process, "on" | "off">;

export type StopSignalOptions = {
  source?: SignalSource;
  now?: () => number;
  exit?: (code: number) => void;
};

/** Calls `stop` on the first SIGINT or SIGTERM; returns a function that removes the handlers. */
export function onStopSignals(stop: () => void, options: StopSignalOptions = {}): () => void {
  const { source = process, now = () => performance.now(), exit = (code) => process.exit(code) } = options;
  let firstAt: number | undefined;
  const handler = () => {
    const at = now();
    if (firstAt === undefined) {
      firstAt = at;
      stop();
    } else if (at - firstAt >= SAME_SIGNAL_MS) exit(FORCED_EXIT_CODE);
  };
  source.on("SIGINT", handler);
  source.on("SIGTERM", handler);
  return () => {
    source.off("SIGINT", handler);
    source.off("SIGTERM", handler);
  };
}
