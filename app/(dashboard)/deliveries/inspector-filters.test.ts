import { describe, expect, it } from "vitest";
import { EMPTY_FILTERS, filterErrors, filtersFromParams, toQueryInput } from "./inspector-filters";

const NONE = {
  integration: undefined,
  incidentId: undefined,
  state: undefined,
  status: undefined,
  failedOnly: undefined,
  within: undefined,
  search: undefined,
  limit: 100,
};

describe("toQueryInput", () => {
  it("sends an incident as a whole id or its 8-character short form, and omits empty filters", () => {
    expect(toQueryInput({ ...EMPTY_FILTERS, incident: "0b0c5b52-1c0e" })).toEqual(NONE);
    expect(toQueryInput({ ...EMPTY_FILTERS, incident: " 0B0C5B52 " }).incidentId).toBe("0b0c5b52");
    expect(
      toQueryInput({
        ...EMPTY_FILTERS,
        integration: "north-psap",
        incident: " 0B0C5B52-1C0E-4A57-9A57-200000000001 ",
        state: "expired",
        status: "503",
        failed: "1",
        within: "1h",
        q: "  label ",
      }),
    ).toEqual({
      integration: "north-psap",
      incidentId: "0b0c5b52-1c0e-4a57-9a57-200000000001",
      state: "expired",
      status: 503,
      failedOnly: true,
      within: "1h",
      search: "label",
      limit: 100,
    });
  });

  it("leaves out what the server cannot take, and says why beside the field", () => {
    const f = { ...EMPTY_FILTERS, incident: "not-a-uuid", status: "5o3", state: "bogus", within: "2y", selected: "x" };
    expect(toQueryInput(f)).toEqual(NONE);
    expect(filterErrors(f)).toEqual({
      incident: "Not an incident id: paste a whole id or its first 8 characters.",
      status: "An HTTP status: three digits, 100–599.",
      selected: '"x" is not a Service-Request-Id.',
    });
    expect(filterErrors(EMPTY_FILTERS)).toEqual({});
  });

  it("reads the filters from URL parameters, dropping unknown keys and arrays", () => {
    expect(filtersFromParams({ incident: "abc", status: ["1", "2"], other: "x" })).toEqual({
      ...EMPTY_FILTERS,
      incident: "abc",
    });
  });
});
