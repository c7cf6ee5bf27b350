// Receiver URLs as users give them: embedded receivers recognised (path or own-origin URL),
// external ones under the outbound policy, each refusal one line.
import { describe, expect, it } from "vitest";
import { validateReceiverUrl } from "./validate-receiver-url.ts";

const env = (mode: "local" | "shared" = "local", allow: string[] = []) => ({
  PUBLIC_URL: "http://localhost:3000",
  ACCESS_MODE: mode,
  OUTBOUND_ALLOW: allow,
});
const check = (input: string, insecureDev = false, e = env(), embeddedKey?: string) =>
  validateReceiverUrl({ input, insecureDev, env: e, field: "url", embeddedKey });

describe("validateReceiverUrl", () => {
  it("https anywhere public, http only on loopback with insecure-dev; trailing slash dropped", async () => {
    expect(await check("https://cad.example.com/hooks/")).toEqual({
      kind: "external",
      url: "https://cad.example.com/hooks",
    });
    expect(await check("http://127.0.0.5:8080", true)).toEqual({ kind: "external", url: "http://127.0.0.5:8080" });
    expect(await check("http://[::1]:8080/", true)).toEqual({ kind: "external", url: "http://[::1]:8080" });
  });

  it("recognises the embedded receivers: the path, and its absolute URL on the own origin", async () => {
    const northPsap = {
      kind: "embedded",
      key: "north-psap",
      path: "/receivers/north-psap",
      url: "http://localhost:3000/receivers/north-psap",
    };
    expect(await check("/receivers/north-psap/")).toEqual(northPsap);
    expect(await check("http://localhost:3000/receivers/north-psap")).toEqual(northPsap);
    expect(await check("http://127.0.0.1:3000/receivers/north-psap/", false, env("shared"))).toEqual(northPsap);
    await expect(check("/receivers/central-ems", false, env(), "north-psap")).rejects.toThrow(
      "refused: a receiver on this workbench must be the integration's own embedded receiver, /receivers/north-psap",
    );
    await expect(check("/api/trpc/system.resetSeed")).rejects.toThrow(
      'refused: "/api/trpc/system.resetSeed" is not an http(s) URL, and the only paths on this workbench are its embedded receivers (/receivers/{key})',
    );
  });

  it.each([
    [
      "http://cad.example.com/hooks",
      false,
      env(),
      "OutboundRefused",
      "refused: http://cad.example.com is plain http; HTTPS with a valid certificate is required unless the target is marked insecure-dev (loopback, or a host in OUTBOUND_ALLOW)",
    ],
    ["ftp://localhost/x", true, env(), "OutboundRefused", "refused: ftp: is not an http(s) URL"],
    ["not a url", false, env(), "ValidationFailed", 'refused: "not a url" is not an http(s) URL'],
    [
      "https://u:p@cad.example.com",
      false,
      env(),
      "OutboundRefused",
      "refused: a receiver URL must not carry credentials (user:password@)",
    ],
    [
      "https://cad.example.com/?a=1",
      false,
      env(),
      "ValidationFailed",
      "refused: a receiver URL is a base URL: no query string or fragment",
    ],
    [
      "http://localhost:5432",
      true,
      env("shared"),
      "OutboundRefused",
      "refused: localhost is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    ],
    [
      "http://169.254.169.254/latest",
      true,
      env("local", ["0.0.0.0/0"]),
      "OutboundRefused",
      "refused: 169.254.169.254 is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "https://10.0.0.8/hooks",
      false,
      env(),
      "OutboundRefused",
      "refused: 10.0.0.8 is a private address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
    ],
  ])("refuses %s in one line", async (input, insecureDev, e, code, message) => {
    await expect(check(input, insecureDev, e)).rejects.toMatchObject({ code, status: 400, message });
  });

  it("admits through OUTBOUND_ALLOW what the default refuses (never link-local)", async () => {
    expect(await check("https://10.0.0.8/hooks", false, env("local", ["10.0.0.0/8"]))).toEqual({
      kind: "external",
      url: "https://10.0.0.8/hooks",
    });
    expect(await check("http://127.0.0.1:4000", true, env("shared", ["127.0.0.1"]))).toEqual({
      kind: "external",
      url: "http://127.0.0.1:4000",
    });
  });
});
