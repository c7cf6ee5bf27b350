// A partner system's side of the platform, as a QA test drives it: tokens from
// the real POST /connect/token (client_credentials, the seed's partner-cad
// client by default) and calls to the real inbound API (/v1).
import { randomUUID } from "node:crypto";
import type { WorkbenchSeed } from "./ephemeral.ts";

/**
 * Every inbound scope the seed's partner-cad client holds. A copy of the server's list (the kit
 * imports nothing of the workbench); server-copies.test.ts fails when the two differ.
 */
export const INBOUND_SCOPES = [
  "agency.read",
  "call.report",
  "incident.create",
  "incident.update",
  "incident.caller.track",
  "incident.caller.locate",
  "incident.caller.chat",
  "incident.caller.live-video",
  "incident.collaboration",
  "incident.close",
] as const;

/** A scope of the inbound API. */
export type InboundScope = (typeof INBOUND_SCOPES)[number];

/** Who a partner system acts for; every field has a default. */
export type Acting = {
  /** agency_context: the agency the token acts for (default North PSAP, `SEED.agencies.northPsap`). */
  agencyId?: string;
  /** A seeded user for a user-context token (default dispatcher.north; null: an application token). */
  username?: string | null;
  /** The scopes to ask for (default: every inbound scope); username.required is added for a user token. */
  scopes?: readonly (InboundScope | "identity.user.signin" | (string & {}))[];
};

/** An HTTP method of the inbound API. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** An answer of the inbound API, whatever its status: a problem (application/problem+json) when it is not 2xx. */
export type ApiAnswer<T = Record<string, unknown>> = { status: number; body: T; headers: Headers };

/** A WGS84 position. */
export type GeoPoint = { latitude: number; longitude: number };

/**
 * The body of POST /v1/incidents (docs/inbound-api.md). A copy of the server's schema
 * (server/http/inbound/operations/create-incident.schema.ts), guarded by server-copies.test.ts.
 */
export type CreateIncidentRequest = {
  /** TokenAgency: the incident belongs to the token's agency. Jurisdiction: to the agencies whose area holds caller.location. */
  routingMode: "TokenAgency" | "Jurisdiction";
  /** A UUID of the caller's choosing: repeating the call with it answers the same incident. */
  requestedIncidentId?: string;
  /** A call of the token's agency (POST /v1/calls). */
  callId?: string;
  caller?: {
    /** Required in both routing modes, e.g. "+4791234567" (digits, optionally +, spaces, dashes, parentheses; 32 at most). */
    phoneNumber?: string;
    /** Required for Jurisdiction: the caller's first position. */
    location?: GeoPoint;
  };
  /** Jurisdiction only: prefer covering agencies of these types, in this order. */
  preferredAgencyTypes?: ("Psap" | "Ems" | "Fire")[];
  /** Text, or null; empty or whitespace-only text is refused. */
  label?: string | null;
  summary?: string | null;
  callSign?: string | null;
};

/**
 * A partner system calling the inbound API: tokens from the real POST /connect/token (client
 * partner-cad by default), cached per agency, user and scopes.
 */
export class PartnerApi {
  private readonly tokens = new Map<string, { token: string; until: number }>();

  constructor(
    readonly baseUrl: string,
    private readonly seed: WorkbenchSeed,
    private readonly acting: Acting = {},
    private readonly client = seed.clients.partnerCad,
  ) {}

  /** The same client acting for another agency or user. */
  as(acting: Acting): PartnerApi {
    return new PartnerApi(this.baseUrl, this.seed, { ...this.acting, ...acting }, this.client);
  }

  /** An access token for the inbound API (cached until a minute before it expires). */
  async token(): Promise<string> {
    const agencyId = this.acting.agencyId ?? this.seed.agencies.northPsap;
    const username = this.acting.username === undefined ? "dispatcher.north" : this.acting.username;
    const scopes = [...(this.acting.scopes ?? INBOUND_SCOPES), ...(username ? ["username.required"] : [])];
    const key = `${agencyId}|${username}|${scopes.join(" ")}`;
    const cached = this.tokens.get(key);
    if (cached && cached.until > Date.now()) return cached.token;
    const res = await fetch(`${this.baseUrl}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: this.client.clientId,
        client_secret: this.client.clientSecret,
        scope: scopes.join(" "),
        agency_context: agencyId,
        ...(username ? { username } : {}),
      }),
    });
    const body = (await res.json()) as { access_token?: string; expires_in?: number; error_description?: string };
    if (res.status !== 200 || !body.access_token)
      throw new Error(`POST /connect/token answered ${res.status}: ${body.error_description ?? JSON.stringify(body)}`);
    this.tokens.set(key, { token: body.access_token, until: Date.now() + ((body.expires_in ?? 300) - 60) * 1000 });
    return body.access_token;
  }

  /** Any inbound call: `/v1/…` with this client's token; the answer whatever its status. */
  async call<T = Record<string, unknown>>(
    method: HttpMethod,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiAnswer<T>> {
    const send = async () =>
      fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await this.token()}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let res = await send();
    // Token lifetimes run on the workbench clock: after a jump a cached token is expired. Once, with a new one.
    if (res.status === 401 && !headers.authorization) {
      this.tokens.clear();
      res = await send();
    }
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
  }

  /** Like `call`, but a status outside 2xx fails with the problem the API answered. */
  async expectOk<T = Record<string, unknown>>(method: HttpMethod, path: string, body?: unknown): Promise<ApiAnswer<T>> {
    const answer = await this.call<T>(method, path, body);
    if (answer.status < 200 || answer.status > 299)
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer;
  }

  /**
   * POST /v1/incidents; resolves with the incident's id. Defaults: routingMode TokenAgency, a new
   * requestedIncidentId, caller.phoneNumber +4791234567; `body` replaces any of them.
   */
  async createIncident(body: Partial<CreateIncidentRequest> = {}): Promise<string> {
    const answer = await this.expectOk<{ incidentId: string }>("POST", "/v1/incidents", {
      routingMode: "TokenAgency",
      requestedIncidentId: randomUUID(),
      caller: { phoneNumber: "+4791234567" },
      ...body,
    });
    return answer.body.incidentId;
  }

  /** PATCH /v1/incidents/{id}/label (null clears it). */
  setLabel(incidentId: string, label: string | null) {
    return this.expectOk("PATCH", `/v1/incidents/${incidentId}/label`, { label });
  }

  /** POST /v1/incidents/{id}/close. */
  close(incidentId: string) {
    return this.expectOk("POST", `/v1/incidents/${incidentId}/close`);
  }
}
