import { RoleGate } from "../_components/role-gate";
import { Suspense } from "react";
import { PageHeader } from "../_components/page-header";
import { SimulatorWorkspace } from "./_components/simulator-workspace";

export const metadata = { title: "Simulator" };

export default function Page() {
  return (
    <>
      <PageHeader title="Simulator">
        Play the caller: raise incidents from an app, a web page, AML or ELS, move the caller, change battery, name and
        medical data, chat and end live video. Each action is a change on the platform, delivered to the receivers like
        a real one. Scenarios script whole stories.
      </PageHeader>
      <RoleGate call="simulator.raise" what="Driving the simulator">
        <Suspense>
          <SimulatorWorkspace />
        </Suspense>
      </RoleGate>
    </>
  );
}
