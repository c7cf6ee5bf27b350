import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server-rendered HTML and until React has hydrated the page, true after.
 * Forms keep their controls disabled until then: a value typed before hydration is
 * reset by it, and a submit before hydration is a native GET that reloads the page
 * and loses the input (seen as a flaky e2e run on a loaded machine). Forms get this through
 * ClientForm (form.tsx).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
