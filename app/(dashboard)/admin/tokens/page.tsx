import { PageHeader } from "../../_components/page-header";
import { RoleGate } from "../../_components/role-gate";
import { TokenInspector } from "./token-inspector";

export const metadata = { title: "Token inspector" };

export default function TokensPage() {
  return (
    <>
      <PageHeader title="Token inspector">
        Paste an access token (JWT) to see its header and claims, whether it verifies against the current JWKS, and when
        it expires on the workbench clock. The token is sent to this workbench only and never stored or logged.
      </PageHeader>
      <RoleGate call="identity.tokens.inspect" what="Inspecting a token">
        <TokenInspector />
      </RoleGate>
    </>
  );
}
