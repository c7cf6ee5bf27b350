import { PageHeader } from "../_components/page-header";
import { DashboardIncidentList } from "./_components/dashboard-incident-list";

export const metadata = { title: "Incidents" };

export default function Page() {
  return (
    <>
      <PageHeader title="Incidents">
        Every incident on the platform — raised through the inbound API, by the simulator, or seeded — with its current
        v3 snapshot and every change record the webhook engine planned from. Updates live.
      </PageHeader>
      <DashboardIncidentList />
    </>
  );
}
