// One HTTP/1.1 request over a plain socket, the request target sent byte for byte as given
// (as `curl --path-as-is` does): fetch and node:http would normalise or refuse some spellings.
import net from "node:net";

export type RawAnswer = { status: number; headers: Record<string, string>; body: string };

export function rawHttpRequest(
  baseUrl: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { host: url.host, connection: "close", ...options.headers };
  if (options.body !== undefined) headers["content-length"] = String(Buffer.byteLength(options.body));
  const head = [
    `${options.method ?? "GET"} ${target} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    // Written, not ended: a half-closed socket may be dropped before a slow answer is sent.
    socket.on("connect", () => socket.write(`${head.join("\r\n")}\r\n\r\n${options.body ?? ""}`));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [rawHead = "", ...rest] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = rawHead.split("\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        if (i > 0) parsed[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status, headers: parsed, body: rest.join("\r\n\r\n") });
    });
  });
}
