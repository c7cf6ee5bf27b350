import { describe, expect, it } from "vitest";
import { isProtocolPath } from "./protocol-app.ts";

describe("isProtocolPath", () => {
  it.each([
    "/connect/token",
    "/.well-known/openid-configuration",
    "/Account/LoginUserByToken",
    "/v1",
    "/v1/calls",
    "/receivers/north-psap/about",
  ])("%s goes to Hono", (p) => expect(isProtocolPath(p)).toBe(true));
  it.each([
    "/",
    "/clock",
    "/api/trpc/clock.show",
    "/v1x",
    "/v10/calls",
    "/reference-receivers",
    "/connection",
    "/account/x",
  ])("%s goes to Next", (p) => expect(isProtocolPath(p)).toBe(false));
});
