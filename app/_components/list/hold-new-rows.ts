// PURE: a live list, newest first, that does not move under its reader. While the reader has
// scrolled or selected a row, rows newer than the one that was on top (`anchorId`) are held back and
// counted, for an "N new" button; rows already shown still update in place (a state changing from
// retrying to delivered moves nothing). Ids are the outbox's increasing bigints as decimal strings.
export function holdNewRows<T extends { id: string }>(
  rows: T[],
  anchorId: string | null,
): { visible: T[]; newCount: number } {
  if (anchorId === null) return { visible: rows, newCount: 0 };
  const anchor = BigInt(anchorId);
  const firstOld = rows.findIndex((r) => BigInt(r.id) <= anchor);
  const newCount = firstOld === -1 ? rows.length : firstOld;
  return { visible: rows.slice(newCount), newCount };
}
