// `npm start`: builds when the build is missing or stale, then runs the compiled server in this same
// process: the check and the server share one process start (docs/decisions/0036).
//
// CommonJS, and nothing here queues work to libuv's thread pool: the launcher must be the first to
// do so (server/platform/thread-pool-priority.ts).
const path = require("node:path");
const { buildIfStale } = require("./build-if-stale.cjs");

buildIfStale();
process.env.NODE_ENV = "production";
// What `--enable-source-maps` does, for every module loaded from here on: stack traces name the
// TypeScript sources.
process.setSourceMapsEnabled(true);
require(path.join(__dirname, "..", "dist", "server", "launch.cjs"));
