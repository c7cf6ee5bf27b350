// The entry `npm start` runs, compiled to dist/server/launch.cjs. It is CommonJS so that nothing has
// queued work to libuv's thread pool when it starts: it starts the pool below the event loop
// (platform/thread-pool-priority.ts, decision 0033), then starts the dashboard's thread and loads the
// server, dist/server/main.mjs.
// Loading main.mjs directly also works, with the pool at the main thread's priority.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startThreadPoolBelowEventLoop } from "./platform/thread-pool-priority.ts";
import { startNextThreadEarly } from "./http/next-thread/start-next-thread.ts";

// A variable, so that the compiler leaves the server out of this file and Node loads it as the ES
// module it is, beside this one.
const SERVER = "./main.mjs";
const NEXT_THREAD = "next-thread.mjs";

const pool = startThreadPoolBelowEventLoop();
void pool
  .catch(() => undefined) // the server says which priority its pool runs at (main.ts)
  .then(() => {
    // Built, the dashboard has a thread of its own (docs/decisions/0038): started now, Next
    // prepares there while this thread loads the server and starts the database.
    if (process.env.NODE_ENV === "production") startNextThreadEarly(pathToFileURL(path.join(__dirname, NEXT_THREAD)));
    return import(SERVER);
  });
