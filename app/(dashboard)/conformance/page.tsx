import { HydrateClient, prefetch, trpc } from "@/app/_trpc/server";
import { PageHeader } from "../_components/page-header";
import { ConformanceConsole } from "./conformance-console";

export const metadata = { title: "Conformance" };
export const dynamic = "force-dynamic";

export default async function ConformancePage() {
  // Awaited: the client's first render must see the same data the server rendered (prefetch's comment).
  await Promise.all([prefetch(trpc.conformance.history.queryOptions()), prefetch(trpc.directory.list.queryOptions())]);
  return (
    <HydrateClient>
      <PageHeader title="Receiver conformance">
        Check a webhook receiver against the v3 contract before go-live: discovery, token validation (every forged or
        wrong token must be refused) and delivery semantics. A receiver whose /about declares 2.x (or 1.x) gets the same
        checks for the legacy contract: PsapConnector tokens with each route&apos;s psap.* scope, v2 bodies. The
        workbench signs the tokens with its own keys, so the receiver must fetch them from this workbench&apos;s JWKS.
        HTTPS with a valid certificate is required; insecure-dev allows plain http and self-signed certificates for
        loopback receivers (or hosts the operator allows). Incidents the kit sends are Demo or Test, never Real.
      </PageHeader>
      <ConformanceConsole />
    </HydrateClient>
  );
}
