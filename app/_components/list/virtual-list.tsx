"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { cn, focusRing } from "../ui/cn";
import { nextActiveIndex } from "./next-active-index";

export type VirtualListProps<T> = {
  items: T[];
  getKey: (item: T, index: number) => string;
  renderItem: (item: T, state: { index: number; active: boolean; selected: boolean }) => ReactNode;
  /** Accessible name of the list ("Deliveries"). */
  ariaLabel: string;
  /** Row height in px: exact for fixed rows (the fast path), an estimate when `measureRows`. */
  estimateSize?: number;
  /** Measure each rendered row (variable heights). Off by default: measuring forces a layout per
   * new row, which costs frames when a scroll jump mounts a screenful of fresh rows. */
  measureRows?: boolean;
  /** CSS height of the scroll box. */
  height?: number | string;
  overscan?: number;
  selectedKey?: string | null;
  /** Enter or click on a row. */
  onActivate?: (item: T, index: number) => void;
  /** Server-side pagination: wire useInfiniteQuery's hasNextPage / isFetchingNextPage / fetchNextPage here. */
  hasMore?: boolean;
  isLoadingMore?: boolean;
  onLoadMore?: () => void;
  /** Ask for the next page this many rows before the end (default 30, about one screen). */
  loadMoreThreshold?: number;
  header?: ReactNode;
  empty?: ReactNode;
  className?: string;
  /** The listbox's id: a skip link's target, or a caller that scrolls it back to the top. */
  listId?: string;
  /** Called with the scroll offset (px) as the reader scrolls: a live list holds new rows back off the top. */
  onScrollOffset?: (top: number) => void;
};

/**
 * A listbox that renders only the visible rows (@tanstack/react-virtual), so 100k rows scroll
 * like 100. Keyboard: ↑/↓, PageUp/PageDown, Home/End move the active row (aria-activedescendant,
 * focus stays on the list), Enter activates it.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const {
    items,
    getKey,
    renderItem,
    ariaLabel,
    estimateSize = 40,
    measureRows = false,
    height = 480,
    overscan = 8,
    selectedKey,
    onActivate,
    hasMore,
    isLoadingMore,
    onLoadMore,
    loadMoreThreshold = 30,
    header,
    empty,
    className,
    listId,
    onScrollOffset,
  } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const [active, setActive] = useState(0);
  const count = items.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    overscan,
    getItemKey: (i) => (i < items.length ? getKey(items[i]!, i) : "__load-more"),
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastVisible = virtualItems.at(-1)?.index ?? -1;

  useEffect(() => {
    if (hasMore && !isLoadingMore && onLoadMore && lastVisible >= items.length - loadMoreThreshold) onLoadMore();
  }, [hasMore, isLoadingMore, onLoadMore, lastVisible, items.length, loadMoreThreshold]);
  useEffect(() => {
    if (active >= items.length && items.length) setActive(items.length - 1);
  }, [active, items.length]);
  // A selection made elsewhere (the timeline, a link) becomes the active row, scrolled into view.
  const selectedIndex = selectedKey ? items.findIndex((item, i) => getKey(item, i) === selectedKey) : -1;
  useEffect(() => {
    if (selectedIndex < 0) return;
    setActive(selectedIndex);
    virtualizer.scrollToIndex(selectedIndex, { align: "auto" });
    // Only when the selection (or its place) changes, not on every render of the virtualizer.
  }, [selectedKey, selectedIndex]);

  if (!items.length && !hasMore) return <>{empty ?? <p className="p-4 text-sm text-slate-500">Nothing here yet.</p>}</>;

  const pageSize = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / estimateSize) - 1);
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === "Enter" && items[active]) {
      e.preventDefault();
      onActivate?.(items[active], active);
      return;
    }
    const next = nextActiveIndex(e.key, active, items.length, pageSize);
    if (next === null) return;
    e.preventDefault();
    setActive(next);
    virtualizer.scrollToIndex(next, { align: "auto" });
  }

  return (
    <div className={cn("min-w-0 rounded-md border border-slate-200 bg-white", className)}>
      {header && <div className="border-b border-slate-200 bg-slate-50/60">{header}</div>}
      <div
        ref={scrollRef}
        id={listId}
        onScroll={onScrollOffset ? (e) => onScrollOffset(e.currentTarget.scrollTop) : undefined}
        role="listbox"
        aria-label={ariaLabel}
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-activedescendant={items[active] ? `${id}-${active}` : undefined}
        className={cn("group overflow-auto contain-strict", focusRing, "focus-visible:ring-offset-0")}
        style={{ height }}
        data-testid="virtual-list"
      >
        <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualItems.map((v) => {
            const item = items[v.index];
            const style = {
              position: "absolute" as const,
              top: 0,
              left: 0,
              width: "100%",
              transform: `translateY(${v.start}px)`,
              height: measureRows ? undefined : estimateSize,
            };
            const measure = measureRows ? virtualizer.measureElement : undefined;
            if (item === undefined) {
              return (
                <div
                  key={v.key}
                  role="presentation"
                  data-index={v.index}
                  ref={measure}
                  style={style}
                  className="px-3 py-2 text-sm text-slate-500"
                >
                  {isLoadingMore ? "Loading more…" : "More rows on the server"}
                </div>
              );
            }
            const selected = selectedKey != null && getKey(item, v.index) === selectedKey;
            return (
              <div
                key={v.key}
                id={`${id}-${v.index}`}
                role="option"
                aria-selected={selected}
                aria-posinset={v.index + 1}
                aria-setsize={hasMore ? -1 : items.length}
                data-index={v.index}
                ref={measure}
                style={style}
                onClick={() => {
                  setActive(v.index);
                  onActivate?.(item, v.index);
                }}
                className={cn(
                  "cursor-default border-b border-slate-100",
                  // The keyboard's row shows while the list has focus; elsewhere only the selection does.
                  v.index === active &&
                    "group-focus:bg-orange-50 group-focus:outline group-focus:outline-1 group-focus:-outline-offset-1 group-focus:outline-orange-300",
                  selected && "bg-orange-100",
                )}
              >
                {renderItem(item, { index: v.index, active: v.index === active, selected })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
