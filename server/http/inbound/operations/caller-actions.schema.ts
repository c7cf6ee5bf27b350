import { z } from "@hono/zod-openapi";
import { ZKnownLocation } from "../../../incidents/snapshot.schema.ts";

export const ZTrackResponse = z.object({ location: ZKnownLocation }).openapi("AddedLocation", {
  example: {
    location: {
      type: "Known",
      latitude: 59.97,
      longitude: 10.76,
      capturedAtUtc: "2026-11-22T08:16:00.000Z",
      receivedAtUtc: "2026-11-22T08:16:00.000Z",
      source: "Entered",
    },
  },
});
export const ZLocateResponse = z
  .object({ smsId: z.uuid(), sentTo: z.string() })
  .openapi("LocationSms", { example: { smsId: "4b1f0c7e-2a9d-4e3b-8f6a-5c2d1e0b9a87", sentTo: "+4791234567" } });
export const ZPortalUrlResponse = z.object({ portalUrl: z.string() }).openapi("PortalUrl", {
  example: { portalUrl: "http://localhost:3000/portal/incidents/7d3c1e0a-5b7e-4c1f-9a52-1f1d3f0a9b11/chat" },
});
export const ZCloseResponse = z.object({ incidentId: z.uuid(), closedAtUtc: z.string() }).openapi("ClosedIncident", {
  example: { incidentId: "7d3c1e0a-5b7e-4c1f-9a52-1f1d3f0a9b11", closedAtUtc: "2026-11-22T09:02:00.000Z" },
});
