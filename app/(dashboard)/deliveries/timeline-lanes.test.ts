import { describe, expect, it } from "vitest";
import type { InspectedDelivery } from "@/server/webhooks/admin/inspect-deliveries";
import { TIMELINE_LANES, timelineTitle, toTimelineLanes } from "./timeline-lanes";

const INCIDENT = "0b0c5b52-1c0e-4a57-9a57-200000000001";

function row(n: number, patch: Partial<InspectedDelivery> = {}): InspectedDelivery {
  return {
    id: String(n),
    requestId: `request-${n}`,
    integration: "north-psap",
    incidentId: INCIDENT,
    event: "incident.caller.track",
    method: "POST",
    path: `/v3/incidents/${INCIDENT}/caller/track`,
    state: "delivered",
    producedAt: `2026-11-24T01:00:${String(n % 60).padStart(2, "0")}.000Z`,
    nextAttemptAt: null,
    finishedAt: null,
    waitingBehind: null,
    attempts: [{ at: "2026-11-24T01:01:00.000Z", status: 200, error: null, durationMs: 12 }],
    ...patch,
  };
}

describe("toTimelineLanes", () => {
  it("draws the newest rows in view, oldest at the top, each with its state in words", () => {
    const rows = [row(3), row(2, { state: "pending", attempts: [], waitingBehind: "aaaabbbb-cccc" }), row(1)];
    expect(toTimelineLanes(rows, { integration: "" })).toEqual([
      {
        requestId: "request-1",
        producedAt: rows[2]!.producedAt,
        state: "delivered",
        attempts: rows[2]!.attempts,
        statusLabel: "delivered",
        label: "north-psap · caller.track · 0b0c5b52",
      },
      expect.objectContaining({ requestId: "request-2", statusLabel: "waiting behind aaaabbbb" }),
      expect.objectContaining({ requestId: "request-3" }),
    ]);
  });

  it("takes no more than TIMELINE_LANES rows, the newest", () => {
    const rows = Array.from({ length: TIMELINE_LANES + 5 }, (_, i) => row(100 - i));
    const lanes = toTimelineLanes(rows, { integration: "" });
    expect(lanes).toHaveLength(TIMELINE_LANES);
    expect(lanes.at(-1)!.requestId).toBe("request-100");
    expect(lanes[0]!.requestId).toBe(`request-${100 - TIMELINE_LANES + 1}`);
  });

  it("leaves out of the label what the filters already say", () => {
    const r = [row(1, { event: "incident.created", integration: "fire-rescue" })];
    expect(toTimelineLanes(r, { integration: "" })[0]!.label).toBe("fire-rescue · created · 0b0c5b52");
    expect(toTimelineLanes(r, { integration: "fire-rescue" })[0]!.label).toBe("created · 0b0c5b52");
    expect(toTimelineLanes(r, { integration: "", incidentId: INCIDENT })[0]!.label).toBe("fire-rescue · created");
    expect(toTimelineLanes(r, { integration: "fire-rescue", incidentId: "0b0c5b52" })[0]!.label).toBe("created");
  });
});

describe("timelineTitle", () => {
  it("names the incident, else the integration, else how many of the rows in view are drawn", () => {
    expect(timelineTitle({ integration: "north-psap", incidentId: INCIDENT }, 3)).toBe(
      "Attempt timeline of this incident",
    );
    expect(timelineTitle({ integration: "north-psap" }, 3)).toBe("Attempt timeline of north-psap");
    expect(timelineTitle({ integration: "" }, 3)).toBe("Attempt timeline (newest 3 in view)");
    expect(timelineTitle({ integration: "" }, 500)).toBe(`Attempt timeline (newest ${TIMELINE_LANES} in view)`);
  });
});
