// The Account API's problem object for a database outage (decision 0064): the spec's
// InternalServerError ("request could not be completed"), answered 503 with Retry-After, so a
// partner that branches on `code` meets a code of the spec's table and still knows to retry.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { AppError } from "../../platform/errors.ts";
import { createLogger } from "../../platform/logger.ts";
import { renderAccountProblem } from "./render-account-problem.ts";

function appThrowing(error: unknown) {
  const app = new Hono();
  app.post("/Account/GetUserSigninToken", () => {
    throw error;
  });
  app.onError((err, c) =>
    renderAccountProblem(c, err, { logger: createLogger({ level: "silent" }), errorTypeBase: "http://wb.test/errors" }),
  );
  return app;
}

describe("renderAccountProblem", () => {
  it("answers a database outage as the spec's InternalServerError, 503 with Retry-After", async () => {
    const unavailable = new AppError(
      "DatabaseUnavailable",
      "The database is not reachable right now; retry in a few seconds.",
    );
    const res = await appThrowing(unavailable).request("/Account/GetUserSigninToken", { method: "POST" });
    expect([res.status, res.headers.get("retry-after"), res.headers.get("content-type")]).toEqual([
      503,
      "5",
      "application/problem+json",
    ]);
    expect(await res.json()).toMatchObject({
      type: "http://wb.test/errors/InternalServerError",
      code: "InternalServerError",
      status: 503,
      detail: "The database is not reachable right now; retry in a few seconds.",
    });
  });

  it("keeps the spec's own codes as they are", async () => {
    const res = await appThrowing(new AppError("UserNotFound", "No such user.")).request(
      "/Account/GetUserSigninToken",
      {
        method: "POST",
      },
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "UserNotFound", type: "http://wb.test/errors/UserNotFound" });
  });
});
