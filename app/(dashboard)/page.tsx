import { HydrateClient, prefetch, trpc } from "@/app/_trpc/server";
import { PageHeader } from "./_components/page-header";
import { DirectoryOverview } from "./_components/directory-overview";

export const dynamic = "force-dynamic";

export default function OverviewPage() {
  prefetch(trpc.directory.list.queryOptions());
  prefetch(trpc.system.info.queryOptions());
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
