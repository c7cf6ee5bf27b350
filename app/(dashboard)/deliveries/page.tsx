import { PageHeader } from "../_components/page-header";
import { DeliveriesInspector } from "./deliveries-inspector";
import { filtersFromParams } from "./inspector-filters";

export const metadata = { title: "Deliveries" };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const initial = filtersFromParams(await searchParams);
  return (
    <>
      <PageHeader title="Deliveries">
        Every webhook event planned for a receiver, newest first: why it is in its state (backoff 1 s, doubling; later
        events of an incident wait behind a failing head; expiry one hour after production), the request and responses,
        and what changed in the incident. The contract:{" "}
        <a className="underline" href="/api/docs/webhooks/asyncapi.json">
          AsyncAPI 3 document
        </a>
        .
      </PageHeader>
      <DeliveriesInspector initial={initial} />
    </>
  );
}
