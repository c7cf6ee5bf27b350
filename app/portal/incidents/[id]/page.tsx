import { requirePortalSession } from "../../require-portal-session";
import { PortalIncident } from "./_components/portal-incident";

export const dynamic = "force-dynamic";
export const metadata = { title: "Incident" };

/** The openUrl target ({portal_url}/portal/incidents/{id}, server/incidents/portal-urls.ts). */
export default async function PortalIncidentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePortalSession(`/portal/incidents/${encodeURIComponent(id)}`);
  return <PortalIncident incidentId={id} />;
}
