// What is kept of one call (docs/decisions/0072): PURE, from what the HTTP layer saw. Never a
// secret: client secrets, codes, verifiers, refresh and access tokens, sign-in tokens, passwords and
// the LoginUserByToken query are replaced by their facts (a field was there, a token said this, it
// was encoded twice). Bodies are kept to 64 KiB. A digest of each token tells a token used again
// from a new one without keeping the token.
import { createHash } from "node:crypto";
import { decodeJwt } from "jose";
import {
  MAX_KEPT_BODY_BYTES,
  type CallSurface,
  type ClientCallInput,
  type RequestFacts,
  type ResponseFacts,
  type TokenFacts,
} from "./call-record.ts";

export type SeenCall = {
  receivedAt: Date;
  durationMs: number;
  method: string;
  path: string;
  /** The raw query string, without "?". */
  query: string;
  headers: Headers;
  /** The request body as text, or null when none was sent (or it was not read: `requestBytes` says its size). */
  requestBody: string | null;
  requestBytes: number;
  status: number;
  responseHeaders: Headers;
  responseBody: string | null;
  fault: string | null;
  incidentId: string | null;
  changeSeqs: number[];
  traceId: string | null;
};

/** Form fields whose values are credentials: kept as "[redacted]". */
const SECRET_FIELDS = new Set(["client_secret", "code", "code_verifier", "refresh_token", "password", "assertion"]);
/** Members of an answer that are credentials, and what stands in their place. */
const SECRET_MEMBERS: Record<string, string> = {
  access_token: "[access token]",
  refresh_token: "[refresh token]",
  id_token: "[id token]",
  token: "[sign-in token]",
};
const KEPT_REQUEST_HEADERS = [
  "content-type",
  "content-length",
  "accept",
  "user-agent",
  "origin",
  "if-match",
  "traceparent",
  "x-request-id",
  "access-control-request-method",
  "access-control-request-headers",
];
const KEPT_RESPONSE_HEADERS = [
  "content-type",
  "content-length",
  "etag",
  "retry-after",
  "www-authenticate",
  "location",
  "cache-control",
];
/** The header the dashboard's Partner console marks its calls with. */
export const CONSOLE_HEADER = "x-workbench-console";

export const surfaceOf = (path: string): CallSurface | null =>
  path === "/connect/token"
    ? "token"
    : path === "/v1" || path.startsWith("/v1/")
      ? "v1"
      : path.startsWith("/Account/")
        ? "account"
        : null;

/** /v1 paths as the spec names them: ids after `incidents` and `calls` become their parameters. */
export function operationTemplate(method: string, path: string): string {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    if (parts[i - 1] === "incidents" && parts[i] !== "") parts[i] = "{incidentId}";
    else if (parts[i - 1] === "calls" && parts[i] !== "") parts[i] = "{callId}";
  }
  return `${method} ${parts.join("/")}`;
}

export const digestOf = (value: string) => createHash("sha256").update(value).digest("base64url").slice(0, 22);

function cut(text: string | null): { text: string | null; cut: boolean } {
  if (text === null) return { text: null, cut: false };
  if (Buffer.byteLength(text) <= MAX_KEPT_BODY_BYTES) return { text, cut: false };
  // Cut on a character boundary at most 64 KiB of UTF-8 long.
  let kept = text.slice(0, MAX_KEPT_BODY_BYTES);
  while (Buffer.byteLength(kept) > MAX_KEPT_BODY_BYTES) kept = kept.slice(0, -1024);
  return { text: kept, cut: true };
}

function keptHeaders(headers: Headers, names: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value.slice(0, 500);
  }
  return kept;
}

/** The form with every credential's value replaced; its field names. */
function describeForm(body: string): { text: string; fields: string[]; values: URLSearchParams } {
  const values = new URLSearchParams(body);
  const kept = new URLSearchParams();
  for (const [name, value] of values) kept.append(name, SECRET_FIELDS.has(name) ? "[redacted]" : value);
  return { text: kept.toString(), fields: [...new Set(values.keys())], values };
}

/** An answer's JSON with its credentials replaced; the text as it came when it is not JSON. */
function describeAnswerJson(body: string | null): { text: string | null; json: Record<string, unknown> | null } {
  if (body === null) return { text: null, json: null };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { text: body, json: null };
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return { text: body, json: null };
  const record = json as Record<string, unknown>;
  const kept = { ...record };
  for (const [member, standIn] of Object.entries(SECRET_MEMBERS)) if (member in kept) kept[member] = standIn;
  return { text: JSON.stringify(kept), json: record };
}

const text = (value: unknown) => (typeof value === "string" ? value : null);
const list = (value: unknown) =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string")
    : typeof value === "string"
      ? [value]
      : [];

/** What a JWT's payload says (unverified: the status says whether the platform accepted it). */
export function tokenFacts(token: string, nowMs: number, issued: boolean): TokenFacts | null {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(token);
  } catch {
    return null;
  }
  const exp = typeof claims.exp === "number" ? claims.exp : null;
  const iat = typeof claims.iat === "number" ? claims.iat : null;
  return {
    clientId: text(claims.client_id),
    scopes: text(claims.scope)?.split(" ").filter(Boolean) ?? [],
    aud: list(claims.aud),
    agencyContext: text(claims.agency_context),
    username: text(claims.username),
    issuedAt: iat === null ? null : new Date(iat * 1000).toISOString(),
    expiresAt: exp === null ? null : new Date(exp * 1000).toISOString(),
    expiresInS: exp === null ? null : Math.round(exp - nowMs / 1000),
    issued,
  };
}

function retryAfterSeconds(headers: Headers): number | null {
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/** Everything the recorder keeps of a call; `nowMs` dates the token's remaining life. */
export function describeCall(seen: SeenCall, nowMs: number): ClientCallInput | null {
  const surface = surfaceOf(seen.path);
  if (!surface) return null;
  const headers = keptHeaders(seen.headers, KEPT_REQUEST_HEADERS);
  const bearer = /^Bearer\s+(\S+)$/i.exec(seen.headers.get("authorization") ?? "")?.[1];
  if (seen.headers.has("authorization")) headers.authorization = bearer ? "Bearer [token]" : "[credentials]";
  const responseHeaders = keptHeaders(seen.responseHeaders, KEPT_RESPONSE_HEADERS);
  const signInPage = seen.path === "/Account/LoginUserByToken";
  let query = Object.fromEntries(new URLSearchParams(seen.query));
  let signIn: RequestFacts["signIn"];
  let signInDigests: string[] | undefined;
  if (signInPage) {
    // Never the token or where it leads (Passwordless sign-in sequence, rule 3): only what they were.
    const rawToken = /(?:^|&)token=([^&]*)/.exec(seen.query)?.[1] ?? "";
    signIn = {
      tokenPresent: rawToken !== "",
      encodedTwice: /%25[0-9a-f]{2}/i.test(rawToken),
      returnUrlGiven: /(?:^|&)returnUrl=[^&]/.test(seen.query),
    };
    const once = safeDecode(rawToken);
    signInDigests = once === null ? [] : [once, safeDecode(once)].filter((t): t is string => !!t).map(hashSigninToken);
    query = {};
    if (responseHeaders.location) responseHeaders.location = "[return URL]";
  }

  let operation = surface === "v1" ? operationTemplate(seen.method, seen.path) : `${seen.method} ${seen.path}`;
  let clientId: string | null = null;
  let formFields: string[] = [];
  let requestBody = seen.requestBody;
  let token: TokenFacts | null = null;
  let tokenDigest: string | null = null;
  const answer = describeAnswerJson(seen.responseBody);

  if (surface === "token" && seen.method === "POST" && requestBody !== null) {
    const form = describeForm(requestBody);
    requestBody = form.text;
    formFields = form.fields;
    clientId = form.values.get("client_id");
    operation = `token ${form.values.get("grant_type") ?? "(no grant_type)"}`;
    const issued = text(answer.json?.access_token);
    if (issued) {
      token = tokenFacts(issued, nowMs, true);
      tokenDigest = digestOf(issued);
    }
  } else if (bearer) {
    token = tokenFacts(bearer, nowMs, false);
    tokenDigest = digestOf(bearer);
    clientId = token?.clientId ?? null;
  }

  const kept = cut(requestBody);
  const keptAnswer = cut(answer.text);
  const problemCode = text(answer.json?.code) ?? text(answer.json?.error);
  const ifMatch = seen.headers.get("if-match") ?? "";
  return {
    receivedAt: seen.receivedAt,
    durationMs: Math.round(seen.durationMs),
    surface,
    operation,
    method: seen.method,
    path: seen.path,
    clientId,
    agencyId:
      token?.agencyContext ??
      (surface === "token" ? (new URLSearchParams(requestBody ?? "").get("agency_context") ?? null) : null),
    username: token?.username ?? null,
    status: seen.status,
    problemCode: seen.status >= 400 ? problemCode : null,
    request: {
      headers,
      query,
      formFields,
      bodyBytes: seen.requestBytes,
      bodyCut: kept.cut,
      digest: digestOf(`${seen.method} ${seen.path} ${ifMatch} ${kept.text ?? ""}`),
      ...(signIn ? { signIn } : {}),
    },
    requestBody: kept.text,
    response: {
      headers: responseHeaders,
      bodyBytes: seen.responseBody === null ? 0 : Buffer.byteLength(seen.responseBody),
      bodyCut: keptAnswer.cut,
      retryAfterS: retryAfterSeconds(seen.responseHeaders),
    } satisfies ResponseFacts,
    responseBody: keptAnswer.text,
    token,
    tokenDigest,
    ...(signInDigests ? { signInDigests } : {}),
    fault: seen.fault,
    incidentId: seen.incidentId,
    changeSeqs: seen.changeSeqs,
    traceId: seen.traceId,
    console: seen.headers.get(CONSOLE_HEADER) === "1",
  };
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    return null;
  }
}

/** As the sign-in token's row stores it (identity/hash-opaque-value.ts: SHA-256, base64url). */
const hashSigninToken = (raw: string) => createHash("sha256").update(raw, "utf8").digest("base64url");
