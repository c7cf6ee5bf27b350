import { describe, expect, it } from "vitest";
import { CapturedLogs } from "../testing/test-server.ts";
import { createLogger, loggableUrl, REDACTED } from "./logger.ts";
import { installTracing, type Tracing } from "./tracing/tracing.ts";

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

describe("a traced logger (tracing configured)", () => {
  it("puts the active span's ids on the lines logged inside it, and nothing on the others", () => {
    const logs = new CapturedLogs();
    const logger = createLogger({ destination: logs, traced: true });
    let active: { trace_id: string; span_id: string; trace_flags: string } | undefined;
    installTracing({ logFields: () => active } as unknown as Tracing);
    try {
      logger.info({ a: 1 }, "before");
      active = { trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", span_id: "00f067aa0ba902b7", trace_flags: "01" };
      logger.info({ b: 2 }, "inside");
      active = undefined;
      logger.info({ c: 3 }, "after");
    } finally {
      installTracing(null);
    }
    const [before, inside, after] = logs.records();
    expect(before).not.toHaveProperty("trace_id");
    expect(inside).toMatchObject({ b: 2, trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", span_id: "00f067aa0ba902b7" });
    // pino merges a line's fields into what the mixin returned: nothing may carry over to the next line.
    expect(after).not.toHaveProperty("trace_id");
    expect(after).not.toHaveProperty("a");
    expect(after).not.toHaveProperty("b");
  });

  it("untraced (the default): no mixin at all", () => {
    const logs = new CapturedLogs();
    installTracing({ logFields: () => ({ trace_id: "x", span_id: "y", trace_flags: "01" }) } as unknown as Tracing);
    try {
      createLogger({ destination: logs }).info("line");
    } finally {
      installTracing(null);
    }
    expect(logs.records()[0]).not.toHaveProperty("trace_id");
  });
});
