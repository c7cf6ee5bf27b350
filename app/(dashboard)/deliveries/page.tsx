import { PageHeader } from "../_components/page-header";
import { DeliveriesView } from "./deliveries-view";

export const metadata = { title: "Deliveries" };

export default function Page() {
  return (
    <>
      <PageHeader title="Deliveries">
        Every webhook event planned for a receiver, in the order it is delivered per incident: attempts, retries on the
        workbench clock (1 s, doubling) and expiry one hour after production. The contract:{" "}
        <a className="underline" href="/api/docs/webhooks/asyncapi.json">AsyncAPI 3 document</a>.
      </PageHeader>
      <DeliveriesView />
    </>
  );
}
