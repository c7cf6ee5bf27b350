"use client";
// Which caller messages this dispatcher has seen, per browser: a mark in localStorage per
// incident (the newest caller message's time when the incident page showed it). Kept in the
// browser on purpose: the portal has no per-user read state on the server, and a dispatcher
// works at one console; another browser shows the same messages as unread.
import { useSyncExternalStore } from "react";

const KEY = (incidentId: string) => `portal.chatSeen.${incidentId}`;
const EVENT = "portal-chat-seen";

/** A caller message newer than the seen mark is unread. Pure, so it is unit-tested. */
export function hasUnread(lastCallerMessageAtUtc: string | null, seenAtUtc: string | null): boolean {
  if (!lastCallerMessageAtUtc) return false;
  return !seenAtUtc || Date.parse(lastCallerMessageAtUtc) > Date.parse(seenAtUtc);
}

export function markChatSeen(incidentId: string, lastCallerMessageAtUtc: string) {
  try {
    const seen = localStorage.getItem(KEY(incidentId));
    if (seen && Date.parse(seen) >= Date.parse(lastCallerMessageAtUtc)) return;
    localStorage.setItem(KEY(incidentId), lastCallerMessageAtUtc);
    window.dispatchEvent(new Event(EVENT));
  } catch {
    // Storage refused (private mode, quota): messages stay marked unread, nothing breaks.
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(EVENT, onChange);
  };
}

function readSeen(incidentId: string): string | null {
  try {
    return localStorage.getItem(KEY(incidentId));
  } catch {
    return null;
  }
}

/** The seen mark of one incident, following changes from other tabs; null on the server. */
export function useChatSeen(incidentId: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => readSeen(incidentId),
    () => null,
  );
}
