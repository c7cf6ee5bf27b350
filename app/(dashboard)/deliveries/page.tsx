import { PageHeader } from "../_components/page-header";
import { DeliveriesInspector } from "./deliveries-inspector";
import { EMPTY_FILTERS, type InspectorFilters } from "./inspector-filters";

export const metadata = { title: "Deliveries" };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const pick = (k: keyof InspectorFilters) => (typeof params[k] === "string" ? params[k] : "");
  const initial: InspectorFilters = {
    ...EMPTY_FILTERS,
    integration: pick("integration"),
    incident: pick("incident"),
    state: pick("state"),
    q: pick("q"),
    selected: pick("selected"),
  };
  return (
    <>
      <PageHeader title="Deliveries">
        Every webhook event planned for a receiver, per integration and per incident: each attempt on a time axis
        (backoff 1 s, doubling; later events of an incident wait behind a failing head; expiry one hour after
        production), the request and response in full, and what changed in the incident. The contract:{" "}
        <a className="underline" href="/api/docs/webhooks/asyncapi.json">
          AsyncAPI 3 document
        </a>
        .
      </PageHeader>
      <DeliveriesInspector initial={initial} />
    </>
  );
}
