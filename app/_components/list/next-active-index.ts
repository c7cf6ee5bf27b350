/** Where the active row goes for a key press in a list of `count` rows (null: not a navigation key). */
export function nextActiveIndex(key: string, current: number, count: number, pageSize: number): number | null {
  if (count === 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (key) {
    case "ArrowDown":
      return clamp(current + 1);
    case "ArrowUp":
      return clamp(current - 1);
    case "PageDown":
      return clamp(current + pageSize);
    case "PageUp":
      return clamp(current - pageSize);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}
