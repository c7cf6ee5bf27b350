"use client";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { PortalClientConfig } from "../portal-client";
import { PKCE_STORAGE } from "../sign-in-button";

type Outcome =
  { state: "working" } | { state: "done"; expiresIn: number; scope: string } | { state: "failed"; message: string };

/**
 * The PKCE client's redirect target: checks `state`, redeems the code with the
 * verifier at the token endpoint, and keeps the tokens in memory only (a public
 * client has nowhere safe to store them). The portal session itself was set by
 * the identity server when the user signed in.
 */
export function CompleteSignIn({ config }: { config: PortalClientConfig }) {
  const [outcome, setOutcome] = useState<Outcome>({ state: "working" });
  // Through /portal?next=…, which checks the path again before following it.
  const [next, setNext] = useState("/portal");
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const params = new URLSearchParams(window.location.search);
      const verifier = sessionStorage.getItem(PKCE_STORAGE.VERIFIER_KEY);
      const expectedState = sessionStorage.getItem(PKCE_STORAGE.STATE_KEY);
      sessionStorage.removeItem(PKCE_STORAGE.VERIFIER_KEY);
      sessionStorage.removeItem(PKCE_STORAGE.STATE_KEY);
      const stored = sessionStorage.getItem(PKCE_STORAGE.NEXT_KEY);
      sessionStorage.removeItem(PKCE_STORAGE.NEXT_KEY);
      if (stored) setNext(`/portal?next=${encodeURIComponent(stored)}`);
      // Drop the code from the address bar and history.
      window.history.replaceState(null, "", "/portal/callback");
      if (params.get("error"))
        return setOutcome({ state: "failed", message: params.get("error_description") ?? params.get("error")! });
      const code = params.get("code");
      if (!code || !verifier || params.get("state") !== expectedState)
        return setOutcome({ state: "failed", message: "The sign-in response does not match a request of this tab." });
      const res = await fetch(config.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          client_id: config.clientId,
          code,
          redirect_uri: config.redirectUri,
          code_verifier: verifier,
        }),
      });
      const body = (await res.json()) as { expires_in?: number; scope?: string; error_description?: string };
      if (!res.ok)
        return setOutcome({ state: "failed", message: body.error_description ?? "The code could not be redeemed." });
      setOutcome({ state: "done", expiresIn: body.expires_in!, scope: body.scope! });
    })();
  }, [config]);

  return (
    <section aria-labelledby="cb-h" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 id="cb-h" className="text-xl font-semibold">
        {outcome.state === "working" ? "Signing in…" : outcome.state === "done" ? "Signed in" : "Sign-in failed"}
      </h1>
      <div role="status" className="mt-2 text-sm">
        {outcome.state === "done" && (
          <p>
            Access token received for <code>{outcome.scope}</code>, valid {outcome.expiresIn} s, with a refresh token
            (kept in memory only).
          </p>
        )}
        {outcome.state === "failed" && <p className="text-red-700">{outcome.message}</p>}
      </div>
      {outcome.state !== "working" && (
        <p className="mt-4">
          <Link href={next} className="font-medium text-orange-800 underline">
            Go to the portal
          </Link>
        </p>
      )}
    </section>
  );
}
