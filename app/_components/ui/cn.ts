import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** shadcn's class joiner: later Tailwind classes win over earlier ones (a caller's `className` overrides a variant). */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** One focus ring for every interactive element, so keyboard users always see where they are. */
export const focusRing =
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 focus-visible:ring-offset-2";
