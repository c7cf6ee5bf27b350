import { NotBuiltYet, PageHeader } from "../_components/page-header";

export const metadata = { title: "Deliveries" };

export default function Page() {
  return (
    <>
      <PageHeader title="Deliveries" />
      <NotBuiltYet issue={5} what="The delivery inspector (every attempt, retry and expiry)" />
    </>
  );
}
