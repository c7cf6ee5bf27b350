import Link from "next/link";
import { PageHeader } from "../_components/page-header";
import { ClientsAdmin } from "./clients-admin";
import { DirectoryAdmin } from "./directory-admin";
import { IntegrationsAdmin } from "./integrations-admin";
import { KeysAdmin } from "./keys-admin";
import { RetentionAdmin } from "./retention-admin";
import { AccessModePanel, ApiTokensAdmin, MembersAdmin } from "./access-admin";
import { RoleGate } from "../_components/role-gate";
import { GuessThrottlesAdmin } from "./guess-throttles-admin";

export const metadata = { title: "Admin" };

export default function AdminPage() {
  return (
    <>
      <PageHeader title="Admin">
        Clients with the onboarding values a partner receives, where each agency&apos;s webhooks go, agencies and users,
        the identity server&apos;s signing keys, and what the workbench keeps and how much disk it takes. To look inside
        an access token, use the{" "}
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
        <RoleGate call="access.guessThrottles" what="Slowed-down sign-ins">
          <GuessThrottlesAdmin />
        </RoleGate>
        <RoleGate call="retention.status" what="Retention (what the workbench keeps, its disk, pruning)">
          <RetentionAdmin />
        </RoleGate>
      </div>
    </>
  );
}
