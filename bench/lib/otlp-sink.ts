// An OTLP/HTTP endpoint for benches: accepts every POST (traces, metrics; protobuf or JSON), reads
// the body and answers 200 with an empty body of the request's type, as a collector that keeps up
// would. It counts what came so a bench can say how much was exported.
import http from "node:http";
import type { AddressInfo } from "node:net";

export async function startOtlpSink() {
  const counts = { exports: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    req.on("data", (chunk: Buffer) => (counts.bytes += chunk.length));
    req.on("end", () => {
      counts.exports++;
      const json = (req.headers["content-type"] ?? "").includes("json");
      res
        .writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" })
        .end(json ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
