import { describe, expect, it } from "vitest";
import type { IncidentState } from "./incident-state.ts";
import { RecentIncidents } from "./recent-incidents.ts";

const incident = (id: string): IncidentState => ({
  id,
  ownerAgencyId: "owner",
  createdByAgencyId: null,
  routingMode: "TokenAgency",
  purpose: "Test",
  version: 3,
  lastSeq: 4,
  closedAt: null,
  liveVideoEndsAt: new Date("2026-11-26T10:00:00.000Z"),
  snapshot: { summary: "as written", caller: { tracks: [{ source: "Entered", track: [] }] } } as never,
  internal: { appleEedTrack: [] },
  collaboration: "Owner",
});

const SUBSCRIBERS = [{ name: "webhooks" }];

/** `agencyId` null: the change named no acting agency. */
const remember = (recent: RecentIncidents, state: IncidentState, agencyId: string | null = "north") =>
  recent.remember(state, {
    agencyId: agencyId ?? undefined,
    xmin: "1234",
    state: JSON.stringify({ ...state, id: undefined }),
    prefetched: [{ rows: [] }],
    subscribers: SUBSCRIBERS,
    planningVersion: "7",
  });

describe("RecentIncidents", () => {
  it("gives back the incident as written, with the xmin and planning version its write must find", () => {
    const recent = new RecentIncidents();
    remember(recent, incident("a"));
    expect(recent.take("a", "north", SUBSCRIBERS)).toEqual({
      ...incident("a"),
      prefetched: [{ rows: [] }],
      readXmin: "1234",
      planningVersion: "7",
    });
  });

  it("is taken out: only the next write puts it back", () => {
    const recent = new RecentIncidents();
    remember(recent, incident("a"));
    expect(recent.take("a", "north", SUBSCRIBERS)).toBeDefined();
    expect(recent.take("a", "north", SUBSCRIBERS)).toBeUndefined();
  });

  it("keeps the state as written: what happens to the written objects afterwards never reaches it", () => {
    const recent = new RecentIncidents();
    const written = incident("a");
    remember(recent, written);
    (written.snapshot as { summary: string }).summary = "mutated after the write";
    written.snapshot.caller.tracks[0]!.track.push({} as never);
    expect(recent.take("a", "north", SUBSCRIBERS)!.snapshot).toEqual(incident("a").snapshot);
  });

  it("is for the agency that acted: another agency's involvement is read", () => {
    const recent = new RecentIncidents();
    remember(recent, incident("a"), "north");
    remember(recent, incident("b"), null);
    expect(recent.take("a", "central", SUBSCRIBERS)).toBeUndefined();
    expect(recent.take("b", "north", SUBSCRIBERS)).toBeUndefined();
    remember(recent, incident("b"), null);
    expect(recent.take("b", undefined, SUBSCRIBERS)).toBeDefined();
  });

  it("is for the subscribers registered when it was written", () => {
    const recent = new RecentIncidents();
    remember(recent, incident("a"));
    expect(recent.take("a", "north", [...SUBSCRIBERS, { name: "another" }])).toBeUndefined();
    remember(recent, incident("a"));
    expect(recent.take("a", "north", [{ name: "webhooks" }])).toBeUndefined();
    remember(recent, incident("a"));
    expect(recent.take("a", "north", [...SUBSCRIBERS])).toBeDefined();
  });

  it("forgets on request, and the least recently written first when full", () => {
    const recent = new RecentIncidents();
    remember(recent, incident("a"));
    recent.forget("a");
    expect(recent.take("a", "north", SUBSCRIBERS)).toBeUndefined();
    for (let i = 0; i < 2_000; i++) remember(recent, incident(`i${i}`));
    remember(recent, incident("i0")); // written again: now the most recent
    remember(recent, incident("new"));
    expect(recent.size).toBe(2_000);
    expect(recent.take("i1", "north", SUBSCRIBERS)).toBeUndefined();
    expect(recent.take("i0", "north", SUBSCRIBERS)).toBeDefined();
    expect(recent.take("new", "north", SUBSCRIBERS)).toBeDefined();
  });
});
