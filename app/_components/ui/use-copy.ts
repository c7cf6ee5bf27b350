"use client";
import { useState } from "react";

/**
 * Copies a text to the clipboard and says how it went for two seconds: "copied", or "failed" where
 * the Clipboard API is missing (it exists only in secure contexts: https or localhost), so a
 * workbench opened over plain http on a LAN address says so instead of failing silently.
 */
export function useCopy(text: string) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2_000);
  }
  return { state, copy };
}
