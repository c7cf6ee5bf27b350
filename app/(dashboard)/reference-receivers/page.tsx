import { NotBuiltYet, PageHeader } from "../_components/page-header";

export const metadata = { title: "Receivers" };

export default function Page() {
  return (
    <>
      <PageHeader title="Receivers" />
      <NotBuiltYet issue={6} what="Reference receivers, capability toggles and fault controls" />
    </>
  );
}
