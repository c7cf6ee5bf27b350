import { describe, expect, it } from "vitest";
import { readClientForm } from "./read-client-form";

function form(entries: Array<[string, string]>) {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
}

describe("readClientForm", () => {
  it("reads every ticked scope and agency, and the lifetime as a number", () => {
    expect(
      readClientForm(
        form([
          ["clientId", "cad-east"],
          ["displayName", "East CAD"],
          ["lifetime", "600"],
          ["scopes", "agency.read"],
          ["scopes", "incident.create"],
          ["agencyIds", "0b0c5b52-1c0e-4a57-9a57-000000000001"],
        ]),
      ),
    ).toEqual({
      clientId: "cad-east",
      displayName: "East CAD",
      scopes: ["agency.read", "incident.create"],
      agencyIds: ["0b0c5b52-1c0e-4a57-9a57-000000000001"],
      accessTokenLifetimeS: 600,
    });
  });

  it("defaults an empty lifetime to one hour and leaves no box ticked as empty lists", () => {
    expect(
      readClientForm(
        form([
          ["clientId", "cad-east"],
          ["displayName", "East CAD"],
          ["lifetime", ""],
        ]),
      ),
    ).toEqual({ clientId: "cad-east", displayName: "East CAD", scopes: [], agencyIds: [], accessTokenLifetimeS: 3600 });
    expect(readClientForm(form([["clientId", "x"]])).accessTokenLifetimeS).toBe(3600);
  });

  it("leaves judging a lifetime that is not a number to the server's schema", () => {
    expect(readClientForm(form([["lifetime", "abc"]])).accessTokenLifetimeS).toBeNaN();
  });
});
