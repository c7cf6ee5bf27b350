// The entry `npm start` runs, compiled to dist/server/launch.cjs. It is CommonJS so that nothing has
// queued work to libuv's thread pool when it starts: it starts the pool below the event loop
// (platform/thread-pool-priority.ts, decision 0033), then loads the server, dist/server/main.mjs.
// Loading main.mjs directly also works, with the pool at the main thread's priority.
import { startThreadPoolBelowEventLoop } from "./platform/thread-pool-priority.ts";

// A variable, so that the compiler leaves the server out of this file and Node loads it as the ES
// module it is, beside this one.
const SERVER = "./main.mjs";

const pool = startThreadPoolBelowEventLoop();
// While the pool's thread starts, the main thread would wait idle: it loads Next's server module
// meanwhile, which the server imports later. CommonJS read synchronously: no job for the pool.
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous load is the point
  require("next");
} catch {
  // the server reports it when it imports Next
}
void pool
  .catch(() => undefined) // the server says which priority its pool runs at (main.ts)
  .then(() => import(SERVER));
