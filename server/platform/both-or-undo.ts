// Two start-up steps run side by side (server/main.ts: the database and workers beside Next). When
// one fails, what the other started is undone, so a failed start leaves nothing running.

/**
 * Both results once both have settled. When either failed, each one that succeeded is undone
 * (an error while undoing is ignored: the first failure is what the caller reports), and the
 * failure is thrown — the first step's when both failed.
 */
export async function bothOrUndo<A, B>(
  first: Promise<A>,
  second: Promise<B>,
  undo: { undoFirst: (a: A) => Promise<unknown>; undoSecond: (b: B) => Promise<unknown> },
): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === "fulfilled" && b.status === "fulfilled") return [a.value, b.value];
  if (a.status === "fulfilled") await undo.undoFirst(a.value).catch(() => undefined);
  if (b.status === "fulfilled") await undo.undoSecond(b.value).catch(() => undefined);
  throw a.status === "rejected" ? a.reason : (b as PromiseRejectedResult).reason;
}
