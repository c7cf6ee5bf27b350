// The shape of a background worker: what server/workers.ts starts after the
// database is ready and stops before it closes. Here, at the bottom, so that a
// domain module can say what it starts without importing the list of workers.

export type Worker = {
  name: string;
  stop: () => Promise<void>;
  /** The process's HTTP server accepts connections now (the embedded receivers answer). */
  listening?: () => void;
  /** The process is stopping: its HTTP server accepts no more requests (stop follows once it has drained). */
  closing?: () => void;
};
