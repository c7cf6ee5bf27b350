// The receivers a QA test asserts on: the workbench's embedded reference
// receivers (what they recorded, through the workbench's API), and an external
// receiver the test owns (a local HTTP server that records what arrives and
// declares the capabilities the test chooses on /about).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { declarationProblem, v3Declaration, type AboutDeclaration } from "./about-declaration.ts";
import type { WorkbenchApi } from "./workbench-api.ts";

/** One request a receiver got. Tokens are never kept. */
export type ReceivedRequest = {
  /** The HTTP method: POST, PUT or PATCH for an event (v3 routes), GET for /about. */
  method: string;
  /** Below {receiver_url}, e.g. /v3/incidents/{id}/label. */
  path: string;
  /** The incident it is about (from the path, or a create's body); null when none is named. */
  incidentId: string | null;
  /** The request's Service-Request-Id header: one per event, the same on every retry of it. */
  serviceRequestId: string | null;
  /** What the receiver answered. */
  status: number;
  /** The JSON body (text when it was not JSON; null when empty). */
  body: unknown;
  /** When it arrived, ISO 8601: the workbench clock's time for an embedded receiver, real time for an external one. */
  receivedAt: string;
};

/** What `toHaveReceived` waits on. */
export interface Receiver {
  /** How failure messages name it. */
  readonly name: string;
  /** Everything received so far, oldest first. */
  received(): Promise<ReceivedRequest[]>;
}

/** One of the workbench's embedded receivers (north-psap, central-ems, fire-rescue, …). */
export class EmbeddedReceiver implements Receiver {
  readonly name: string;
  constructor(
    private readonly api: WorkbenchApi,
    readonly key: string,
  ) {
    this.name = `embedded receiver ${key}`;
  }

  /** What it recorded (the newest 1,000), oldest first; `incidentId` narrows it to one incident. */
  async received(options: { incidentId?: string } = {}): Promise<ReceivedRequest[]> {
    // The API says more of each record; a test sees the fields of ReceivedRequest only.
    const records = await this.api.query<ReceivedRequest[]>("receivers.events", {
      key: this.key,
      limit: 1000,
      ...options,
    });
    return records
      .map(({ method, path, incidentId, serviceRequestId, status, body, receivedAt }) => ({
        method,
        path,
        incidentId,
        serviceRequestId,
        status,
        body,
        receivedAt,
      }))
      .reverse();
  }
}

export type ExternalReceiverOptions = {
  /**
   * What the receiver answers on GET /about (default: v3, every flag true). Capability flags go
   * through `v3Declaration`: `{ declaration: v3Declaration({ labelChanged: false }) }`.
   */
  declaration?: AboutDeclaration;
  /** The HTTP status event requests are answered with (default 200, the only one that accepts); change it any time with `answerWith`. */
  status?: number;
};

/**
 * A receiver the test owns, on 127.0.0.1 and a free port: it records every request (method,
 * path, body, Service-Request-Id), answers GET /about with the declaration chosen, and event
 * routes with `status`. It does not verify tokens: it stands in for the partner's receiver so a
 * test can see exactly what the platform sends. Point an integration at it with `attach`.
 */
export class ExternalReceiver implements Receiver {
  readonly name: string;
  private readonly requests: ReceivedRequest[] = [];
  private declaration: AboutDeclaration;
  private status: number;
  /** How often the platform read /about (discovery). */
  aboutServed = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    options: ExternalReceiverOptions,
  ) {
    this.name = `external receiver ${url}`;
    this.declaration = options.declaration ?? v3Declaration();
    this.status = options.status ?? 200;
  }

  /** Starts one (`externalReceiver.attach` does this and points an integration at it). */
  static async start(options: ExternalReceiverOptions = {}): Promise<ExternalReceiver> {
    if (options.declaration !== undefined) assertDeclaration(options.declaration);
    let receiver: ExternalReceiver | undefined;
    const server = createServer((req, res) => void receiver!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    receiver = new ExternalReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    return receiver;
  }

  private async handle(req: IncomingMessage, res: import("node:http").ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method === "GET" && path === "/about") {
      this.aboutServed++;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(this.declaration));
      return;
    }
    if (req.method === "GET" && path === "/health") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      return;
    }
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // kept as text
    }
    const status = this.status;
    this.requests.push({
      method: req.method ?? "GET",
      path,
      incidentId: /^\/v\d\/incidents\/([0-9a-f-]{36})/i.exec(path)?.[1] ?? incidentIdOf(body),
      serviceRequestId: (req.headers["service-request-id"] as string | undefined) ?? null,
      status,
      body,
      receivedAt: new Date().toISOString(),
    });
    res.writeHead(status).end();
  }

  /** Every request so far except GET /about and /health, oldest first. */
  async received(): Promise<ReceivedRequest[]> {
    return [...this.requests];
  }

  /** Answer event requests with this status from now on (e.g. 503 for an outage, 200 to recover). */
  answerWith(status: number): void {
    this.status = status;
  }

  /**
   * Answer GET /about with another declaration from now on, e.g. `v3Declaration()`; then
   * `externalReceiver.rediscover(integration)` has the platform read it.
   */
  declare(declaration: AboutDeclaration): void {
    assertDeclaration(declaration);
    this.declaration = declaration;
  }

  /** Stops it (the `externalReceiver` fixture closes the ones it attached after the test). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

function assertDeclaration(value: unknown): void {
  const problem = declarationProblem(value);
  if (problem) throw new TypeError(`declaration: ${problem}`);
}

/** A create (POST /v3/incidents) names its incident in the body: { incident: { id } } (v1/v2: { incident: { incidentId } }). */
const incidentIdOf = (body: unknown): string | null => {
  const incident = (body as { incident?: { id?: unknown; incidentId?: unknown } } | null)?.incident;
  const id = incident?.id ?? incident?.incidentId;
  return typeof id === "string" ? id : null;
};
