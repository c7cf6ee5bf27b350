// One call a partner's client made, as the recorder writes it and the inspector reads it
// (docs/api-calls.md, decision 0072). What is kept of a request and its answer is decided in
// describe-call.ts: never a secret, a token or the LoginUserByToken query, only their facts.

/** Where the call went: the token endpoint, the inbound API, or the passwordless sign-in API. */
export const CALL_SURFACES = ["token", "v1", "account"] as const;
export type CallSurface = (typeof CALL_SURFACES)[number];

/** The largest body kept of a request or an answer; longer ones are cut and flagged. */
export const MAX_KEPT_BODY_BYTES = 64 * 1024;

/** What the access token of a call (or the one a token request got) said. */
export type TokenFacts = {
  clientId: string | null;
  scopes: string[];
  aud: string[];
  agencyContext: string | null;
  username: string | null;
  issuedAt: string | null;
  expiresAt: string | null;
  /** Seconds it had left when the call was made (negative: expired). */
  expiresInS: number | null;
  /** A token the call obtained (the token endpoint's answer), not one it presented. */
  issued: boolean;
};

export type RequestFacts = {
  /** Headers, credentials replaced by what they were ("Bearer [token]"), cookies left out. */
  headers: Record<string, string>;
  /** The query's parameters (none of /connect/token's or /v1's are secret); LoginUserByToken's never. */
  query: Record<string, string>;
  /** The form's field names (a token request), to tell psap_id from agency_context. */
  formFields: string[];
  bodyBytes: number;
  bodyCut: boolean;
  /** SHA-256 of method, path, If-Match and the kept body: the same request sent again has the same. */
  digest: string;
  /** LoginUserByToken: what its query held, never the token or the return URL themselves. */
  signIn?: { tokenPresent: boolean; encodedTwice: boolean; returnUrlGiven: boolean };
};

export type ResponseFacts = {
  headers: Record<string, string>;
  bodyBytes: number;
  bodyCut: boolean;
  /** Retry-After, in seconds, when the answer set it. */
  retryAfterS: number | null;
};

export type ClientCallInput = {
  receivedAt: Date;
  durationMs: number;
  surface: CallSurface;
  operation: string;
  method: string;
  path: string;
  clientId: string | null;
  agencyId: string | null;
  username: string | null;
  status: number;
  problemCode: string | null;
  request: RequestFacts;
  requestBody: string | null;
  response: ResponseFacts;
  responseBody: string | null;
  token: TokenFacts | null;
  tokenDigest: string | null;
  /** For LoginUserByToken: the digests the sign-in token may be stored under, to find its client. */
  signInDigests?: string[];
  fault: string | null;
  incidentId: string | null;
  changeSeqs: number[];
  traceId: string | null;
  console: boolean;
};
