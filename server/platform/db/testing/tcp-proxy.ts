// A TCP proxy a test owns between a workbench and a shared PostgreSQL, to play that server's restart
// without touching it: `restart(ms)` cuts every connection and, for `ms`, resets every new one at
// once (as a server that is down refuses it), then passes them on again. It keeps listening: a
// port closed for a while could be taken meanwhile as another connection's local port.
import net from "node:net";

export type TcpProxy = {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  restart: (refuseForMs: number) => Promise<void>;
  close: () => Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  };
  let refusing = false;
  const onConnection = (client: net.Socket) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    accepted++;
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  };
  const server = net.createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port));
    });
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const port = await listen(0);
  const cutAll = () => {
    for (const s of sockets) s.destroy();
  };

  return {
    port,
    get accepted() {
      return accepted;
    },
    async restart(refuseForMs) {
      refusing = true;
      cutAll();
      await new Promise((r) => setTimeout(r, refuseForMs));
      refusing = false;
    },
    async close() {
      const closed = closeServer();
      cutAll();
      await closed;
    },
  };
}
