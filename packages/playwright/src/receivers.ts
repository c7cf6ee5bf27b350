// The receivers a QA test asserts on: the workbench's embedded reference
// receivers (what they recorded, through the workbench's API), and an external
// receiver the test owns (a local HTTP server that records what arrives and
// declares the capabilities the test chooses on /about).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { WorkbenchApi } from "./workbench-api.ts";

/** One request a receiver got. Tokens are never kept: `headers.authorization` is redacted. */
export type ReceivedRequest = {
  method: string;
  /** Below {receiver_url}, e.g. /v3/incidents/{id}/label. */
  path: string;
  incidentId: string | null;
  serviceRequestId: string | null;
  /** What the receiver answered. */
  status: number;
  body: unknown;
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

/** The v3 flags a receiver can declare on /about, by the spec's names. */
export type V3Flag =
  | "incident.created"
  | "incident.closed"
  | "incident.changed"
  | "caller.changed"
  | "caller.newLocation"
  | "caller.trackReplaced"
  | "caller.fullNameChanged"
  | "caller.phoneNumberChanged"
  | "caller.deviceInfoChanged"
  | "caller.chat.activated"
  | "caller.liveVideo.activated"
  | "caller.liveVideo.ended"
  | "involvedAgency.invited"
  | "involvedAgency.collaboration.changed"
  | "labelChanged"
  | "summaryChanged"
  | "callSignChanged"
  | "patient.descriptionChanged";

const V3_FLAGS: V3Flag[] = [
  "incident.created",
  "incident.closed",
  "incident.changed",
  "caller.changed",
  "caller.newLocation",
  "caller.trackReplaced",
  "caller.fullNameChanged",
  "caller.phoneNumberChanged",
  "caller.deviceInfoChanged",
  "caller.chat.activated",
  "caller.liveVideo.activated",
  "caller.liveVideo.ended",
  "involvedAgency.invited",
  "involvedAgency.collaboration.changed",
  "labelChanged",
  "summaryChanged",
  "callSignChanged",
  "patient.descriptionChanged",
];

/** A v3 /about declaration: every flag true unless `flags` says otherwise. */
export function v3Declaration(flags: Partial<Record<V3Flag, boolean>> = {}, version = "3.0") {
  const supports: Record<string, unknown> = {};
  for (const flag of V3_FLAGS) {
    const path = flag.startsWith("incident.") ? flag.split(".") : ["incident", ...flag.split(".")];
    let node = supports;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[path.at(-1)!] = flags[flag] ?? true;
  }
  return { version, supports, allowsMonitoring: false };
}

export type ExternalReceiverOptions = {
  /** The /about declaration (default: v3, every flag true). */
  declaration?: unknown;
  /** The status event requests are answered with (default 200); change it any time with `answerWith`. */
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
  private declaration: unknown;
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

  static async start(options: ExternalReceiverOptions = {}): Promise<ExternalReceiver> {
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

  async received(): Promise<ReceivedRequest[]> {
    return [...this.requests];
  }

  /** Answer event requests with this status from now on (e.g. 503 for an outage, 200 to recover). */
  answerWith(status: number): void {
    this.status = status;
  }

  /** Declare other capabilities on /about; `WorkbenchFixtures.externalReceiver` rediscovers for you. */
  declare(declaration: unknown): void {
    this.declaration = declaration;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** A create (POST /v3/incidents) names its incident in the body: { incident: { id } } (v1/v2: { incident: { incidentId } }). */
const incidentIdOf = (body: unknown): string | null => {
  const incident = (body as { incident?: { id?: unknown; incidentId?: unknown } } | null)?.incident;
  const id = incident?.id ?? incident?.incidentId;
  return typeof id === "string" ? id : null;
};
