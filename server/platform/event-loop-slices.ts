// A long loop on the main thread, cut into slices: between two, the event loop runs what waits
// (answers, statements' results). The loop's work is the same; it only stops holding the thread.

export class EventLoopSlices {
  private started = performance.now();
  constructor(private readonly sliceMs: number) {}

  /** This slice has run for sliceMs: the loop should `await next()` before going on. */
  get spent(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  /** Lets the event loop run the I/O callbacks and immediates that wait, then starts a new slice. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
