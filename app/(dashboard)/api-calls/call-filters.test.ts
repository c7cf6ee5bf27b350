import { describe, expect, it } from "vitest";
import { EMPTY_FILTERS, filterErrors, filtersFromParams, toQueryInput } from "./call-filters";

describe("the API calls page's filters", () => {
  it("read the URL, one value each, and keep the default window", () => {
    expect(filtersFromParams({ client: ["a", "b"], advice: "1", call: "42" })).toEqual({
      ...EMPTY_FILTERS,
      client: "a",
      advice: "1",
      call: "42",
    });
  });

  it("name what a filter cannot hold, and leave it out of the query", () => {
    const f = { ...EMPTY_FILTERS, status: "5xx", incident: "abc", within: "2y", call: "x" };
    expect(filterErrors(f)).toEqual({
      status: "an HTTP status, 100–599",
      incident: "an incident id (a UUID)",
      within: "15m, 1h, 6h or 24h",
      call: "not a call id",
    });
    expect(toQueryInput(f)).toMatchObject({ status: undefined, incidentId: undefined, within: "1h" });
    expect(toQueryInput({ ...EMPTY_FILTERS, status: "503", advice: "1" })).toMatchObject({
      status: 503,
      hasAdvice: true,
    });
  });
});
