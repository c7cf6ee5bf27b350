import { HydrateClient, prefetch, trpc } from "@/app/_trpc/server";
import { PageHeader } from "../_components/page-header";
import { ClockControls } from "./clock-controls";

export const metadata = { title: "Clock" };

export default async function ClockPage() {
  // Awaited: the client's first render must see the same data the server rendered (prefetch's comment).
  await prefetch(trpc.clock.show.queryOptions());
  return (
    <HydrateClient>
      <PageHeader title="Workbench clock">
        Every server-side time (token expiry, retry backoff, the one-hour delivery window, sign-in tokens) reads this
        clock. Jump it ahead to watch retries and expiry happen without waiting.
      </PageHeader>
      <ClockControls />
    </HydrateClient>
  );
}
