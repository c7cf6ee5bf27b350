// A test's teardown that hangs ends as "Hook timed out in 60000ms", which does not say which step
// hung. Each step awaited through sayIfSlow writes one stderr line every 10 s while it is still
// pending, so a failed run's output names it; a step that finishes says nothing.
export const SLOW_STEP_MS = 10_000;

export async function sayIfSlow<T>(step: string, work: Promise<T>): Promise<T> {
  const started = performance.now();
  const timer = setInterval(() => {
    const seconds = Math.round((performance.now() - started) / 1000);
    process.stderr.write(`still waiting for ${step} after ${seconds} s\n`);
  }, SLOW_STEP_MS);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
