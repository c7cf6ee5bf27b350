// The one event every v3 receiver takes: POST /v3/incidents when it declares
// incident.created, else the generic changed event (rule 1: it declares one of
// the two). Token checks send it with each forged credential; it carries a
// Test-purpose incident, so a receiver that wrongly accepts it records nothing
// a dispatcher would act on.
import { randomUUID } from "node:crypto";
import type { ConformanceContext } from "../context.ts";
import type { EventStep } from "./deliver-events.ts";
import { declares, type TAbout } from "../about.schema.ts";
import { sampleIncident } from "../sample-incidents.ts";

export function probeEvent(ctx: ConformanceContext, about: TAbout): EventStep {
  if (declares(about, "created")) {
    return {
      method: "POST",
      path: "/v3/incidents",
      body: { incident: sampleIncident(ctx.samples, { purpose: "Test" }) },
    };
  }
  const id = randomUUID();
  return {
    method: "POST",
    path: `/v3/incidents/${id}/changed`,
    body: { event: "PATCH label", openUrl: `${ctx.samples.portalUrl}/portal/incidents/${id}` },
  };
}
