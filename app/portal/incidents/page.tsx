import { requirePortalSession } from "../require-portal-session";
import { PortalIncidentList } from "./_components/portal-incident-list";

export const dynamic = "force-dynamic";
export const metadata = { title: "Incidents" };

export default async function PortalIncidentsPage() {
  const session = await requirePortalSession("/portal/incidents");
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Incidents</h1>
      <p className="mt-1 text-sm text-slate-600">
        {session.agencyName} and the agencies it works with, most recent activity first. The list updates by itself;
        &ldquo;New message&rdquo; marks a caller who wrote since you last opened the incident in this browser.
      </p>
      <PortalIncidentList ownAgencyId={session.agencyId} />
    </>
  );
}
