import { describe, expect, it } from "vitest";
import { refuseInsecureTarget, resolveReceiverUrl } from "./receiver-url.ts";
import { flattenSupports, majorVersionOf } from "./contracts/v3/capabilities.schema.ts";

describe("receiver URLs", () => {
  it("resolves a stored path against PUBLIC_URL and keeps absolute URLs", () => {
    expect(resolveReceiverUrl("/receivers/north-psap", "http://localhost:3000/")).toBe("http://localhost:3000/receivers/north-psap");
    expect(resolveReceiverUrl("https://cad.example/hooks/", "http://localhost:3000")).toBe("https://cad.example/hooks");
  });
  it("requires https unless insecure-dev", () => {
    expect(refuseInsecureTarget("https://cad.example/about", false)).toBeNull();
    expect(refuseInsecureTarget("http://localhost:3000/receivers/x/about", true)).toBeNull();
    expect(refuseInsecureTarget("http://cad.example/hooks/about", false)).toMatch(/^refused: http:\/\/cad\.example is plain http/);
    expect(refuseInsecureTarget("ftp://cad.example/x", true)).toBe("refused: unsupported scheme ftp:");
  });
});

describe("capability declarations", () => {
  it("flattens declared flags (true only) by the spec's names", () => {
    expect(flattenSupports({ incident: { created: true, changed: false, caller: { liveVideo: { ended: true } }, involvedAgency: { collaboration: { changed: true } }, patient: { descriptionChanged: true } } }))
      .toEqual(["incident.created", "caller.liveVideo.ended", "involvedAgency.collaboration.changed", "patient.descriptionChanged"]);
    expect(flattenSupports({})).toEqual([]);
  });
  it("reads the major version", () => {
    expect([majorVersionOf("3"), majorVersionOf("3.1.4"), majorVersionOf("v2.0"), majorVersionOf("latest")]).toEqual([3, 3, 2, undefined]);
  });
});
