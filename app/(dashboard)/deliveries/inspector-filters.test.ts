import { describe, expect, it } from "vitest";
import { EMPTY_FILTERS, toQueryInput } from "./inspector-filters";

describe("toQueryInput", () => {
  it("sends an incident id only once it is a whole UUID, and omits empty filters", () => {
    expect(toQueryInput({ ...EMPTY_FILTERS, incident: "0b0c5b52-1c0e" })).toEqual({
      integration: undefined,
      incidentId: undefined,
      state: undefined,
      search: undefined,
      limit: 100,
    });
    expect(
      toQueryInput({
        ...EMPTY_FILTERS,
        integration: "north-psap",
        incident: " 0B0C5B52-1C0E-4A57-9A57-200000000001 ",
        state: "expired",
        q: "  label ",
      }),
    ).toEqual({
      integration: "north-psap",
      incidentId: "0b0c5b52-1c0e-4a57-9a57-200000000001",
      state: "expired",
      search: "label",
      limit: 100,
    });
  });
});
