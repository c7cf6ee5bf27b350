import { describe, expect, it } from "vitest";
import { CapturedLogs } from "../testing/test-server.ts";
import { createLogger, loggableUrl, REDACTED } from "./logger.ts";

describe("logger redaction", () => {
  it("never writes secrets the spec names, wherever they sit in a record", () => {
    const logs = new CapturedLogs();
    const logger = createLogger({ destination: logs });
    logger.info(
      {
        client_secret: "s3cret-1",
        body: { client_secret: "s3cret-2", access_token: "eyJ.token.1" },
        headers: { authorization: "Bearer eyJ.token.2", cookie: "wb_session=abc" },
        response: { token: "signin%3Dtoken", refresh_token: "rt-1" },
        redirectUrl: "http://localhost:3000/Account/LoginUserByToken?token=x",
      },
      "request",
    );
    for (const secret of [
      "s3cret-1",
      "s3cret-2",
      "eyJ.token.1",
      "eyJ.token.2",
      "wb_session=abc",
      "signin%3Dtoken",
      "rt-1",
      "LoginUserByToken",
    ]) {
      expect(logs.text).not.toContain(secret);
    }
    expect(logs.text).toContain(REDACTED);
  });

  it("cuts query strings and fragments from URLs meant for logs", () => {
    expect(loggableUrl("http://h/Account/LoginUserByToken?token=a%3D&returnUrl=%2F")).toBe(
      "http://h/Account/LoginUserByToken",
    );
    expect(loggableUrl("/portal#access_token=x")).toBe("/portal");
    expect(loggableUrl("/v1/calls")).toBe("/v1/calls");
  });
});
