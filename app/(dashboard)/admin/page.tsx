import Link from "next/link";
import { PageHeader } from "../_components/page-header";
import { ClientsAdmin } from "./clients-admin";
import { DirectoryAdmin } from "./directory-admin";
import { IntegrationsAdmin } from "./integrations-admin";
import { KeysAdmin } from "./keys-admin";
import { AccessModePanel, ApiTokensAdmin, MembersAdmin } from "./access-admin";
import { RoleGate } from "../_components/role-gate";

export const metadata = { title: "Admin" };

export default function AdminPage() {
  return (
    <>
      <PageHeader title="Admin">
        Clients with the onboarding values a partner receives, where each agency&apos;s webhooks go, agencies and users,
        and the identity server&apos;s signing keys. To look inside an access token, use the{" "}
        <Link href="/admin/tokens" className="font-medium text-orange-800 underline">
          token inspector
        </Link>
        .
      </PageHeader>
      <div className="grid gap-8">
        <AccessModePanel />
        {/* Everyone reads clients, integrations and keys; each section shows its actions to admins only. */}
        <ClientsAdmin />
        <IntegrationsAdmin />
        <DirectoryAdmin />
        <KeysAdmin />
        <RoleGate call="access.members.list" what="Managing members and API tokens">
          <MembersAdmin />
          <ApiTokensAdmin />
        </RoleGate>
      </div>
    </>
  );
}
