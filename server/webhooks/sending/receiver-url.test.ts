import { describe, expect, it } from "vitest";
import {
  embeddedReceiverKeyOf,
  isEmbeddedReceiver,
  listenedKeyOf,
  receiverTarget,
  resolveReceiverUrl,
} from "./receiver-url.ts";
import { parseEnv } from "../../platform/env.ts";
import { refusalOf } from "./send-request.ts";
import { EMPTY_ALLOW_LIST } from "../../platform/network/outbound-policy.ts";
import { flattenSupports, majorVersionOf } from "../../webhook-contracts/v3/capabilities.schema.ts";

describe("receiver URLs", () => {
  it("an attached listener's routed URL (listen:KEY) is the listener target, never refused by the policy", () => {
    expect(listenedKeyOf("listen:north-psap")).toBe("north-psap");
    expect(listenedKeyOf("listen:north psap")).toBeNull();
    expect(listenedKeyOf("https://listen:north-psap")).toBeNull();
    const env = parseEnv({ NODE_ENV: "test", WORKBENCH_ACCESS: "shared" });
    const routed = receiverTarget("listen:north-psap", false, env);
    expect(routed).toEqual({
      baseUrl: "listen://north-psap",
      target: { kind: "listener", insecureDev: false, integrationKey: "north-psap" },
    });
    expect(refusalOf(`${routed.baseUrl}/v3/incidents`, routed.target)).toBeNull();
    // The same loopback receiver, configured directly, is refused in shared mode.
    const direct = receiverTarget("http://127.0.0.1:8080", true, env);
    expect(refusalOf(`${direct.baseUrl}/v3/incidents`, direct.target)).toMatch(/^refused: /);
  });

  it("resolves a stored path against PUBLIC_URL and keeps absolute URLs", () => {
    expect(resolveReceiverUrl("/receivers/north-psap", "http://localhost:3000/")).toBe(
      "http://localhost:3000/receivers/north-psap",
    );
    expect(resolveReceiverUrl("https://cad.example/hooks/", "http://localhost:3000")).toBe("https://cad.example/hooks");
  });
  it("requires https unless insecure-dev (the outbound policy; the embedded receivers get the scheme rule only)", () => {
    const checked = (insecureDev: boolean) =>
      ({ kind: "checked", insecureDev, policy: { mode: "local", allow: EMPTY_ALLOW_LIST } }) as const;
    expect(refusalOf("https://cad.example/about", checked(false))).toBeNull();
    expect(refusalOf("http://localhost:3000/receivers/x/about", checked(true))).toBeNull();
    expect(refusalOf("http://cad.example/hooks/about", checked(false))).toMatch(
      /^refused: http:\/\/cad\.example is plain http/,
    );
    expect(refusalOf("ftp://cad.example/x", checked(true))).toBe("refused: ftp: is not an http(s) URL");
    expect(refusalOf("http://localhost:3000/receivers/x/about", { kind: "embedded", insecureDev: false })).toMatch(
      /^refused: http:\/\/localhost:3000 is plain http/,
    );
    expect(refusalOf("http://localhost:3000/receivers/x/about", { kind: "embedded", insecureDev: true })).toBeNull();
  });
  it("knows an embedded receiver by its stored path, or by an absolute URL on the workbench's own origin", () => {
    expect([
      isEmbeddedReceiver("/receivers/north-psap"),
      isEmbeddedReceiver("/receivers/north-psap/x"),
      isEmbeddedReceiver("/api/trpc"),
      isEmbeddedReceiver("http://localhost:3000/receivers/north-psap"),
    ]).toEqual([true, false, false, false]);
    const own = (u: string, publicUrl = "http://localhost:3000") => embeddedReceiverKeyOf(new URL(u), publicUrl);
    expect([
      own("http://localhost:3000/receivers/north-psap"),
      own("http://localhost:3000/receivers/north-psap/"),
      own("HTTP://LOCALHOST:3000/receivers/north-psap"),
      own("http://127.0.0.1:3000/receivers/north-psap"),
      own("http://[::1]:3000/receivers/north-psap"),
      own("http://localhost:3001/receivers/north-psap"),
      own("https://localhost:3000/receivers/north-psap"),
      own("http://localhost:3000/receivers/north-psap/v3"),
      own("http://localhost:3000/receivers/../api/trpc"),
      own("http://localhost:3000/receivers/north-psap?x=1"),
      own("https://wb.example/base/receivers/central-ems", "https://wb.example/base"),
      own("https://wb.example/receivers/central-ems", "https://wb.example/base"),
      own("https://127.0.0.1/receivers/central-ems", "https://wb.example"),
    ]).toEqual([
      "north-psap",
      "north-psap",
      "north-psap",
      "north-psap",
      "north-psap",
      null,
      null,
      null,
      null,
      null,
      "central-ems",
      null,
      null,
    ]);
  });
});
describe("capability declarations", () => {
  it("flattens declared flags (true only) by the spec's names", () => {
    expect(
      flattenSupports({
        incident: {
          created: true,
          changed: false,
          caller: { liveVideo: { ended: true } },
          involvedAgency: { collaboration: { changed: true } },
          patient: { descriptionChanged: true },
        },
      }),
    ).toEqual([
      "incident.created",
      "caller.liveVideo.ended",
      "involvedAgency.collaboration.changed",
      "patient.descriptionChanged",
    ]);
    expect(flattenSupports({})).toEqual([]);
  });
  it("reads the major version", () => {
    expect([majorVersionOf("3"), majorVersionOf("3.1.4"), majorVersionOf("v2.0"), majorVersionOf("latest")]).toEqual([
      3,
      3,
      2,
      undefined,
    ]);
  });
});
