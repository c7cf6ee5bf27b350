// A delivery history as the webhook engine's CLI prints it: the head event to one receiver fails
// with 503 and retries on 1 s, 2 s, 4 s… backoff until it expires at +1 h; the next event waits
// behind it; another receiver's events go through (one after two retries).
import type { DeliveryLane } from "@/app/_components/timeline/delivery-lane";

const base = Date.UTC(2026, 10, 22, 6, 0, 0);
const t = (s: number) => new Date(base + s * 1000).toISOString();
const BACKOFF_S = [0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 1623, 2223, 2823, 3423];

export const SAMPLE_NOW = t(3700);

export const SAMPLE_DELIVERIES: DeliveryLane[] = [
  {
    requestId: "3f9c2a71-0d4e-4b8a-9f61-5a2c7e1d0b93",
    label: "north-psap · IncidentCreated",
    producedAt: t(0),
    state: "expired",
    attempts: BACKOFF_S.map((s, i) => ({
      at: t(s),
      status: i % 4 === 3 ? null : 503,
      error: i % 4 === 3 ? "connect ECONNREFUSED" : null,
      durationMs: i % 4 === 3 ? 2 : 41,
    })),
  },
  {
    requestId: "a8e41b06-77c2-4e19-8d3f-c2b95f4a6e10",
    label: "north-psap · IncidentUpdated",
    producedAt: t(5),
    state: "pending",
    attempts: [],
  },
  {
    requestId: "5d07f3c9-2b1a-4f6e-a0c8-e93d1b7f4a22",
    label: "ambulance · IncidentCreated",
    producedAt: t(0),
    state: "delivered",
    attempts: [
      { at: t(0), status: 500, error: null, durationMs: 88 },
      { at: t(1), status: 502, error: null, durationMs: 30 },
      { at: t(3), status: 200, error: null, durationMs: 25 },
    ],
  },
  {
    requestId: "c61e9a4f-8f35-4d70-b2a1-07f6d8c3e5b4",
    label: "ambulance · IncidentUpdated",
    producedAt: t(12),
    state: "delivered",
    attempts: [{ at: t(12), status: 204, error: null, durationMs: 19 }],
  },
  {
    requestId: "e2b7d5a0-4c19-4a8e-9d6b-1f3a0c8e7b65",
    label: "fire-d2 · CollaborationRequested",
    producedAt: t(3640),
    state: "delivering",
    attempts: [
      { at: t(3640), status: 429, error: null, durationMs: 12 },
      { at: t(3641), status: 429, error: null, durationMs: 11 },
    ],
  },
];

export type SampleRow = { id: string; index: number; event: string; receiver: string; status: number; at: string };
const EVENTS = ["IncidentCreated", "IncidentUpdated", "CollaborationRequested", "IncidentClosed"];
const RECEIVERS = ["north-psap", "ambulance", "fire-d2"];

/** Deterministic rows for the VirtualList demo (a stand-in for a server page of deliveries). */
export function sampleRows(from: number, count: number): SampleRow[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      id: `d-${i}`,
      index: i,
      event: EVENTS[i % 4]!,
      receiver: RECEIVERS[i % 3]!,
      status: i % 17 === 0 ? 503 : 200,
      at: t(i * 3),
    };
  });
}
