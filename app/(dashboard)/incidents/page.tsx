import { NotBuiltYet, PageHeader } from "../_components/page-header";

export const metadata = { title: "Incidents" };

export default function Page() {
  return (
    <>
      <PageHeader title="Incidents" />
      <NotBuiltYet issue={5} what="Incidents and their live snapshots" />
    </>
  );
}
