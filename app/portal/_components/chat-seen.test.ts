import { describe, expect, it } from "vitest";
import { hasUnread } from "./chat-seen";

describe("hasUnread", () => {
  it("is unread when the caller wrote after the seen mark, or nothing was seen yet", () => {
    expect(hasUnread("2026-11-28T10:00:05.000Z", "2026-11-28T10:00:01.000Z")).toBe(true);
    expect(hasUnread("2026-11-28T10:00:05.000Z", null)).toBe(true);
  });
  it("is read when the mark is as new as the last message, or the caller never wrote", () => {
    expect(hasUnread("2026-11-28T10:00:05.000Z", "2026-11-28T10:00:05.000Z")).toBe(false);
    expect(hasUnread(null, null)).toBe(false);
  });
});
