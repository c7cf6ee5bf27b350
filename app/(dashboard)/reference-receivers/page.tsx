import { PageHeader } from "../_components/page-header";
import { ReceiversPanel } from "./receivers-panel";

export const metadata = { title: "Receivers" };

export default async function Page({ searchParams }: { searchParams: Promise<{ incident?: string | string[] }> }) {
  const { incident } = await searchParams;
  return (
    <>
      <PageHeader title="Reference receivers">
        The embedded v3 receivers the workbench delivers to by default, one per integration at
        /receivers/&#123;key&#125;. Change what they declare on /about, break them on purpose, and see what they
        recorded — duplicates and anomalies marked.
      </PageHeader>
      <ReceiversPanel focusIncidentId={typeof incident === "string" ? incident : undefined} />
    </>
  );
}
