// One value per process, however many times its module is loaded. Next bundles
// app/ apart from the server entry, so a module-level singleton exists twice
// (once per bundle) and a tRPC procedure would see a second, empty copy of an
// event emitter, cache or registry. A globalThis slot under a registered symbol
// is the one object every copy of a module sees.
const slots = globalThis as typeof globalThis & Record<symbol, unknown>;

/** The process's one `name` value, created by `create` on first use. */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`incident-workbench.${name}`);
  if (!(key in slots)) slots[key] = create();
  return slots[key] as T;
}
