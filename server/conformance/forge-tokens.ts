// The tokens the kit presents. The valid one is exactly what the engine sends
// (mintPublisherToken for v3, mintPsapConnectorToken with the route's psap.*
// scope for v1/v2: signed by the workbench's current key, published in its
// JWKS). Every forgery differs from it in one property only, so a receiver that
// accepts it is missing exactly that one check. A forgery imitates one profile:
// the v3 Publisher (the default) or the legacy PsapConnector of one route.
import { createPublicKey, randomBytes, randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTHeaderParameters } from "jose";
import type { WorkbenchClock } from "../platform/clock/clock.ts";
import type { Env } from "../platform/env.ts";
import type { SigningKeyStore } from "../platform/signing-keys.ts";
import { ACCESS_TOKEN_TYP } from "../identity/access-token.ts";
import { PSAP_READ_SCOPE } from "../webhook-contracts/v2/routes.ts";
import {
  mintPsapConnectorToken,
  mintPublisherToken,
  PSAP_CONNECTOR,
  PUBLISHER,
  publisherAudience,
  psapConnectorAudience,
  SERVICE_TOKEN_LIFETIME_S,
  WEBHOOKS_RECEIVE_SCOPE,
} from "../identity/service-tokens.ts";

/** Far beyond any clock tolerance a receiver might allow (30 s here, 5 min in many libraries). */
export const OUT_OF_WINDOW_S = 15 * 60;

/** env.AUTH_URL is {auth_url}: the issuer, whose JWKS the receiver fetches. */
export type TokenDeps = { keys: SigningKeyStore; clock: WorkbenchClock; env: Env; agencyId: string };

type Claims = Record<string, unknown>;
/** Whose valid token a forgery starts from: v3 Publisher, or v1/v2 PsapConnector holding one route's psap.* scope. */
export type TokenProfile = { identity: typeof PUBLISHER } | { identity: typeof PSAP_CONNECTOR; scope: string };
const PUBLISHER_PROFILE: TokenProfile = { identity: PUBLISHER };
type SignOptions = {
  header?: Partial<JWTHeaderParameters>;
  claims?: Claims;
  key?: { privateKey: CryptoKey | Uint8Array; alg: string; kid?: string };
  profile?: TokenProfile;
};

export class TokenForge {
  #foreign: Promise<{ privateKey: CryptoKey; publicJwk: Record<string, unknown> }> | undefined;

  constructor(private readonly deps: TokenDeps) {}

  /** The v3 credential, as the engine mints it. */
  async publisher(): Promise<string> {
    return (await mintPublisherToken(this.#serviceDeps(), this.deps.agencyId)).accessToken;
  }

  /**
   * The legacy credential: the engine's PsapConnector token with the psap.* scopes asked for;
   * psap.read (what the service sends to /about first) unless a route's scope is named.
   */
  async psapConnector(scopes: string[] = [PSAP_READ_SCOPE]): Promise<string> {
    return (await mintPsapConnectorToken(this.#serviceDeps(), this.deps.agencyId, scopes)).accessToken;
  }

  /** A valid token of the profile (Publisher by default) with some claims or header members replaced (undefined removes a claim). */
  async sign(options: SignOptions = {}): Promise<string> {
    const current = await this.deps.keys.current();
    const key = options.key ?? { privateKey: current.privateKey, alg: "RS256", kid: current.kid };
    const header = {
      alg: key.alg,
      typ: ACCESS_TOKEN_TYP,
      ...(key.kid ? { kid: key.kid } : {}),
      ...options.header,
    } as JWTHeaderParameters;
    return new SignJWT(this.#claims(options.claims, options.profile)).setProtectedHeader(header).sign(key.privateKey);
  }

  /** alg "none": no signature at all (RFC 7519 unsecured JWT), otherwise a perfect token of the profile. */
  unsigned(profile: TokenProfile = PUBLISHER_PROFILE): string {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    return `${part({ alg: "none", typ: ACCESS_TOKEN_TYP })}.${part(this.#claims({}, profile))}.`;
  }

  /** HS256 with the published RSA public key (PEM) as the HMAC secret: the classic algorithm-confusion forgery. */
  async hmacWithPublicKey(profile: TokenProfile = PUBLISHER_PROFILE): Promise<string> {
    const current = await this.deps.keys.current();
    const jwk = (await this.deps.keys.jwks()).keys.find((k) => k.kid === current.kid)!;
    const pem = createPublicKey({ key: jwk as import("node:crypto").JsonWebKey, format: "jwk" }).export({
      type: "spki",
      format: "pem",
    }) as string;
    return this.sign({ profile, key: { privateKey: new TextEncoder().encode(pem), alg: "HS256", kid: current.kid } });
  }

  /** Signed by a key the workbench never published, under a kid its JWKS does not hold. */
  async unknownKid(profile: TokenProfile = PUBLISHER_PROFILE): Promise<string> {
    const foreign = await this.#foreignKey();
    return this.sign({
      profile,
      key: { privateKey: foreign.privateKey, alg: "RS256", kid: `unknown-${randomBytes(6).toString("hex")}` },
    });
  }

  /** Signed by a foreign key that the header itself carries (`jwk`): trusting it lets anyone sign. */
  async embeddedJwk(profile: TokenProfile = PUBLISHER_PROFILE): Promise<string> {
    const foreign = await this.#foreignKey();
    return this.sign({
      profile,
      key: { privateKey: foreign.privateKey, alg: "RS256" },
      header: { jwk: foreign.publicJwk },
    });
  }

  /** A valid token whose payload was altered after signing (signature no longer matches): a scope widened. */
  async tampered(profile: TokenProfile = PUBLISHER_PROFILE): Promise<string> {
    const legacy = profile.identity === PSAP_CONNECTOR;
    const [h, , s] = (await (legacy ? this.psapConnector([profile.scope]) : this.publisher())).split(".");
    const scope = `${legacy ? profile.scope : WEBHOOKS_RECEIVE_SCOPE} admin`;
    const payload = Buffer.from(JSON.stringify(this.#claims({ scope }, profile))).toString("base64url");
    return `${h}.${payload}.${s}`;
  }

  otherAgencyAudience(otherAgencyId: string): string {
    return publisherAudience(otherAgencyId);
  }
  otherAgencyLegacyAudience(otherAgencyId: string): string {
    return psapConnectorAudience(otherAgencyId);
  }
  legacyAudience(): string {
    return psapConnectorAudience(this.deps.agencyId);
  }
  audience(): string {
    return publisherAudience(this.deps.agencyId);
  }
  nowS(): number {
    return Math.floor(this.deps.clock.nowMs() / 1000);
  }
  issuer(): string {
    return this.deps.env.AUTH_URL;
  }

  #claims(overrides: Claims = {}, profile: TokenProfile = PUBLISHER_PROFILE): Claims {
    const iat = this.nowS();
    const identity =
      profile.identity === PSAP_CONNECTOR
        ? {
            sub: PSAP_CONNECTOR,
            client_id: PSAP_CONNECTOR,
            aud: psapConnectorAudience(this.deps.agencyId),
            scope: profile.scope,
          }
        : {
            sub: PUBLISHER,
            client_id: PUBLISHER,
            aud: publisherAudience(this.deps.agencyId),
            scope: WEBHOOKS_RECEIVE_SCOPE,
          };
    const base: Claims = {
      iss: this.deps.env.AUTH_URL,
      ...identity,
      iat,
      nbf: iat,
      exp: iat + SERVICE_TOKEN_LIFETIME_S,
      jti: randomUUID(),
    };
    const merged = { ...base, ...overrides };
    return Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
  }

  #serviceDeps() {
    return { keys: this.deps.keys, clock: this.deps.clock, env: this.deps.env };
  }

  #foreignKey() {
    this.#foreign ??= generateKeyPair("RS256", { extractable: true }).then(async (k) => ({
      privateKey: k.privateKey,
      publicJwk: { ...(await exportJWK(k.publicKey)) },
    }));
    return this.#foreign;
  }
}
