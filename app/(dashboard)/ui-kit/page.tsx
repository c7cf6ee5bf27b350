import { SectionCard } from "@/app/_components/ui/card";
import { PageHeader } from "../_components/page-header";
import { JsonDemo, TimelinesDemo, VirtualListDemo } from "./data-demos";
import { PrimitivesDemo } from "./primitives-demo";
import { SnapshotDemo } from "./snapshot-demo";

export const metadata = { title: "UI kit" };

/** Every shared component with realistic data; linked from nowhere, and the visual fixture of e2e/ui-kit.spec.ts. */
export default function UiKitPage() {
  return (
    <>
      <PageHeader title="UI kit">
        The components the workbench pages are built from, with sample data: a Test incident with caller tracks, a
        delivery history with retries and an expiry, 100,000 rows in a virtual list.
      </PageHeader>
      <nav aria-label="Kit sections" className="mb-6 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {[
          ["#primitives", "Primitives"],
          ["#snapshot", "Incident snapshot"],
          ["#timelines", "Timelines"],
          ["#json", "JSON"],
          ["#virtual", "Virtual list"],
        ].map(([href, label]) => (
          <a key={href} href={href} className="text-orange-800 underline-offset-4 hover:underline">
            {label}
          </a>
        ))}
      </nav>
      <div className="grid gap-8">
        <SectionCard id="primitives" title="Primitives">
          <PrimitivesDemo />
        </SectionCard>
        <section id="snapshot" aria-labelledby="snapshot-h" className="scroll-mt-4">
          <h2 id="snapshot-h" className="mb-3 text-lg font-semibold">
            Incident snapshot and caller track map
          </h2>
          <SnapshotDemo />
        </section>
        <SectionCard id="timelines" title="Delivery attempts and timeline">
          <TimelinesDemo />
        </SectionCard>
        <SectionCard id="json" title="JSON">
          <JsonDemo />
        </SectionCard>
        <SectionCard id="virtual" title="Virtual list">
          <VirtualListDemo />
        </SectionCard>
      </div>
    </>
  );
}
