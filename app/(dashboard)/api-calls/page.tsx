import { PageHeader } from "../_components/page-header";
import { ApiCallsInspector } from "./api-calls-inspector";
import { filtersFromParams } from "./call-filters";

export const metadata = { title: "API calls" };

/** The client half of an integration: what partner clients called (docs/api-calls.md). Viewers and up. */
export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const initial = filtersFromParams(await searchParams);
  return (
    <>
      <PageHeader title="API calls">
        Every call a partner system made to <code>/connect/token</code>, <code>/v1</code> and <code>/Account</code>,
        newest first: what it sent and was answered, what its token said, what it changed, and the advice the
        spec&apos;s rules give about it. Secrets and tokens are never kept, only their facts.
      </PageHeader>
      <ApiCallsInspector initial={initial} />
    </>
  );
}
