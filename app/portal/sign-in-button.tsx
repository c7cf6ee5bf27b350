"use client";
import type { PortalClientConfig } from "./portal-client";

const VERIFIER_KEY = "portal.pkce.verifier";
const STATE_KEY = "portal.pkce.state";
const NEXT_KEY = "portal.next";

function base64url(bytes: Uint8Array) {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Starts authorization_code + PKCE (S256): the verifier stays in this tab's sessionStorage until the callback. */
export function SignInButton({ config, next }: { config: PortalClientConfig; next?: string }) {
  async function start() {
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const challenge = base64url(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
    );
    sessionStorage.setItem(VERIFIER_KEY, verifier);
    sessionStorage.setItem(STATE_KEY, state);
    // The portal page to continue to after the callback (validated server-side by safePortalNext).
    if (next) sessionStorage.setItem(NEXT_KEY, next);
    else sessionStorage.removeItem(NEXT_KEY);
    const q = new URLSearchParams({
      response_type: "code",
      client_id: config.clientId,
      redirect_uri: config.redirectUri,
      scope: config.scope,
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    window.location.assign(`${config.authorizeUrl}?${q}`);
  }
  return (
    <button
      type="button"
      onClick={() => void start()}
      className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
    >
      Sign in
    </button>
  );
}

export const PKCE_STORAGE = { VERIFIER_KEY, STATE_KEY, NEXT_KEY };
