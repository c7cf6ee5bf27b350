import { PageHeader } from "../../_components/page-header";
import { DashboardIncident } from "../_components/dashboard-incident";

export const metadata = { title: "Incident" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <PageHeader title="Incident">
        <span className="font-mono">{id}</span>
      </PageHeader>
      <DashboardIncident incidentId={id} />
    </>
  );
}
