// A stand-in for the dashboard's thread (next-thread.ts) in start-next-thread.test.ts: the same
// messages, with a small handler instead of Next. FAKE_NEXT_THREAD (the environment the test gave
// it) picks how it misbehaves.
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { socketPath } = workerData;
const behaviour = process.env.FAKE_NEXT_THREAD ?? "ok";
const send = (message) => parentPort.postMessage(message);

if (behaviour === "fail-prepare") send({ type: "failed", message: "Next found no build" });
else send({ type: "prepared" });

let server;
parentPort.on("message", (message) => {
  if (message.type === "serve") {
    if (behaviour === "fail-serve") return send({ type: "failed", message: `no database at ${message.databaseUrl}` });
    server = http.createServer((req, res) => {
      if (req.url === "/crash") process.exit(3);
      res.setHeader("content-type", "application/json");
      if (req.url === "/socket") return res.end(JSON.stringify({ socketPath }));
      res.end(JSON.stringify({ url: req.url, databaseUrl: message.databaseUrl, databaseMode: message.databaseMode }));
    });
    server.listen(socketPath, () => send({ type: "ready" }));
  }
  if (message.type === "stop") {
    if (behaviour === "hang-stop") return;
    const stopped = () => {
      send({ type: "stopped" });
      parentPort.close();
    };
    if (!server) return stopped();
    server.close(stopped);
    server.closeIdleConnections();
  }
});
