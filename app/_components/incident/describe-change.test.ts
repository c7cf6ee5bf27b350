import { describe, expect, it } from "vitest";
import { describeChange } from "./describe-change";

const at = "2026-11-22T07:00:00.000Z";
const rec = (kind: string, payload: unknown = {}) => ({ seq: 1, kind, payload, producedAtUtc: at, actor: "simulator" });

describe("describeChange", () => {
  it("names a measured location with its source and rounded accuracy", () => {
    expect(
      describeChange(rec("caller.newLocation", { source: "Aml", location: { type: "Measured", accuracy: 59.6 } })),
    ).toEqual({ title: "New AML location ±60 m", status: "info" });
    expect(describeChange(rec("caller.newLocation", { source: "Entered", location: { type: "Known" } })).title).toBe(
      "New Entered location",
    );
  });
  it("names agencies through the lookup, and says what caller data changed", () => {
    expect(
      describeChange(rec("involvedAgency.invited", { agencyId: "a2" }), (id) => (id === "a2" ? "Central EMS" : id))
        .title,
    ).toBe("Central EMS invited");
    expect(describeChange(rec("caller.changed", { what: "medicData" })).title).toBe("Medical data shared");
    expect(describeChange(rec("caller.changed", { what: "reportedProblems" }))).toEqual({
      title: "Problems reported",
      status: "warning",
    });
    expect(describeChange(rec("caller.changed", { what: "contacts" })).title).toBe("Caller data changed: contacts");
  });
  it("falls back to the kind for anything unknown", () => {
    expect(describeChange(rec("something.new"))).toEqual({ title: "something.new", status: "neutral" });
  });
});
