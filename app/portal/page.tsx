import { headers } from "next/headers";
import { getPortalSession } from "@/server/identity/portal-sessions";
import { portalClientConfig } from "./portal-client";
import { redirect } from "next/navigation";
import { safePortalNext } from "./safe-portal-next";
import { SignInButton } from "./sign-in-button";
import { getRuntime } from "@/server/runtime";
import { devCredentialsAllowed } from "@/server/identity/dev-credentials";

export const dynamic = "force-dynamic";
export const metadata = { title: "Portal" };

export default async function PortalPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const session = await getPortalSession(await headers());
  const next = safePortalNext((await searchParams).next);
  if (session && next) redirect(next);
  if (!session) {
    // The dev password is mentioned only where it is accepted (refused on a shared workbench unless opted in).
    const devPassword = devCredentialsAllowed(getRuntime().env);
    return (
      <section aria-labelledby="portal-h" className="rounded-lg border border-slate-200 bg-white p-6">
        <h1 id="portal-h" className="text-xl font-semibold">
          Not signed in
        </h1>
        <p className="mt-2 text-sm text-slate-600">
          Sign in with a portal user
          {devPassword ? (
            <>
              {" "}
              (development password <code>workbench</code>)
            </>
          ) : null}
          , or let a partner backend sign you in without a password through <code>/Account/LoginUserByToken</code>.
        </p>
        {next && (
          <p className="mt-2 text-sm text-slate-600">
            After signing in you continue to <code>{next}</code>.
          </p>
        )}
        <div className="mt-4">
          <SignInButton config={portalClientConfig()} next={next} />
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby="portal-h" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 id="portal-h" className="text-xl font-semibold">
        Signed in as <span data-testid="portal-user">{session.username}</span>
      </h1>
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-slate-600">Name</dt>
        <dd>{session.name}</dd>
        <dt className="text-slate-600">Agency</dt>
        <dd data-testid="portal-agency">{session.agencyName}</dd>
        <dt className="text-slate-600">Role</dt>
        <dd>{session.role ?? "—"}</dd>
        <dt className="text-slate-600">Email</dt>
        <dd>{session.email ?? "—"}</dd>
        <dt className="text-slate-600">Signed in</dt>
        <dd>
          {session.method === "signin-token" ? "passwordless (sign-in token)" : "login form"} at{" "}
          <span className="font-mono text-xs">{session.createdAt.toISOString()}</span>
        </dd>
      </dl>
      <form method="post" action="/Account/Logout" className="mt-6">
        <button
          type="submit"
          className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
        >
          Sign out
        </button>
      </form>
    </section>
  );
}
