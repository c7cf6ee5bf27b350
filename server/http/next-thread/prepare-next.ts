// Next, loaded and prepared: by the dashboard's thread in a built workbench (next-thread.ts), on the
// main thread under `npm run dev` (server/main.ts).

/**
 * Its own modules load without source maps (reading and parsing a map per module was a tenth of a
 * warm start): they would name Next's TypeScript sources, which only Next's developers have. The
 * server's maps are read already, and the page chunks loaded later get theirs.
 */
export async function prepareNext(dev: boolean, port: number) {
  const maps = process.sourceMapsEnabled;
  if (maps) process.setSourceMapsEnabled(false);
  try {
    const { default: next } = await import("next");
    const nextApp = next({ dev, dir: process.cwd(), hostname: "localhost", port, turbopack: true });
    await nextApp.prepare();
    return nextApp;
  } finally {
    if (maps) process.setSourceMapsEnabled(true);
  }
}
