"use client";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { PortalClientConfig } from "../portal-client";
import { signInTarget } from "../safe-portal-next";
import { PKCE_STORAGE } from "../sign-in-button";

type Outcome = { state: "working" } | { state: "done"; target: string } | { state: "failed"; message: string };

/**
 * The PKCE client's redirect target: checks `state`, redeems the code with the
 * verifier at the token endpoint, and keeps the tokens in memory only (a public
 * client has nowhere safe to store them). The portal session itself was set by
 * the identity server when the user signed in. Then it goes straight on to the page
 * the dispatcher asked for: nobody should have to click through a token page.
 */
export function CompleteSignIn({ config }: { config: PortalClientConfig }) {
  const [outcome, setOutcome] = useState<Outcome>({ state: "working" });
  const [retry, setRetry] = useState("/portal");
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
      const target = signInTarget(stored);
      setRetry(`/portal?next=${encodeURIComponent(target)}`);
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
      const body = (await res.json()) as { error_description?: string };
      if (!res.ok)
        return setOutcome({ state: "failed", message: body.error_description ?? "The code could not be redeemed." });
      setOutcome({ state: "done", target });
      window.location.replace(target);
    })();
  }, [config]);

  return (
    <section aria-labelledby="cb-h" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 id="cb-h" className="text-xl font-semibold">
        {outcome.state === "failed" ? "Sign-in failed" : "Signing in…"}
      </h1>
      <div role="status" className="mt-2 text-sm">
        {outcome.state === "done" && (
          <p>
            Signed in. Opening <Link href={outcome.target}>{outcome.target}</Link>…
          </p>
        )}
        {outcome.state === "failed" && <p className="text-red-700">{outcome.message}</p>}
      </div>
      {outcome.state === "failed" && (
        <p className="mt-4">
          <Link href={retry} className="font-medium text-orange-800 underline">
            Try signing in again
          </Link>
        </p>
      )}
    </section>
  );
}
