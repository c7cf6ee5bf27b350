import { PageHeader } from "../_components/page-header";
import { ClockControls } from "./clock-controls";

export const metadata = { title: "Clock" };

export default function ClockPage() {
  return (
    <>
      <PageHeader title="Workbench clock">
        Every server-side time (token expiry, retry backoff, the one-hour delivery window, sign-in tokens) reads this
        clock. Jump it ahead to watch retries and expiry happen without waiting.
      </PageHeader>
      <ClockControls />
    </>
  );
}
