import { HydrateClient, prefetch, trpc } from "@/app/_trpc/server";
import { PageHeader } from "./_components/page-header";
import { DirectoryOverview } from "./_components/directory-overview";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  // Awaited: the client's first render must see the same data the server rendered (prefetch's comment).
  await Promise.all([prefetch(trpc.directory.list.queryOptions()), prefetch(trpc.system.info.queryOptions())]);
  return (
    <HydrateClient>
      <PageHeader title="Overview">
        The platform this workbench embeds: its agencies, the clients partners authenticate as, portal users and the
        webhook integrations that deliver to receivers.
      </PageHeader>
      <DirectoryOverview />
    </HydrateClient>
  );
}
