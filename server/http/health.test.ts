import { describe, expect, it } from "vitest";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import type { Runtime } from "../runtime.ts";
import { healthApp } from "./health.ts";

function appWith(queryRaw: () => Promise<unknown>) {
  const db = { $queryRaw: queryRaw } as unknown as Runtime["db"];
  return healthApp({ db, clock: new WorkbenchClock(), databaseMode: "embedded" });
}

describe("GET /api/health", () => {
  it("answers ok with the database mode and the workbench clock, never cached", async () => {
    const res = await appWith(async () => [{ "?column?": 1 }]).request("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { status: string; database: string; now: string };
    expect(body).toMatchObject({ status: "ok", database: "embedded" });
    expect(Number.isNaN(Date.parse(body.now))).toBe(false);
  });

  it("answers 503 unavailable when the database does not answer", async () => {
    const res = await appWith(() => Promise.reject(new Error("connection refused"))).request("/api/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", database: "embedded", reason: "database unreachable" });
  });

  it("answers HEAD like GET and any other method 405 with Allow", async () => {
    const app = appWith(async () => []);
    expect((await app.request("/api/health", { method: "HEAD" })).status).toBe(200);
    const post = await app.request("/api/health", { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(await post.json()).toMatchObject({ error: "method_not_allowed" });
  });
});
