import { NotBuiltYet, PageHeader } from "../_components/page-header";

export const metadata = { title: "Simulator" };

export default function Page() {
  return (
    <>
      <PageHeader title="Simulator" />
      <NotBuiltYet issue={5} what="Caller-side simulation and scripted scenarios" />
    </>
  );
}
