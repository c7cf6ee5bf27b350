import { describe, expect, it } from "vitest";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import type { Runtime } from "../runtime.ts";
import { healthApp } from "./health.ts";

function appWith(queryRaw: () => Promise<unknown>, databaseHealth?: Runtime["databaseHealth"]) {
  const db = { $queryRaw: queryRaw } as unknown as Runtime["db"];
  return healthApp({ db, clock: new WorkbenchClock(), databaseMode: "embedded", databaseHealth });
}

describe("GET /api/health", () => {
  it("answers ok with the database mode and the workbench clock, never cached", async () => {
    const res = await appWith(async () => [{ "?column?": 1 }]).request("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { status: string; database: string; now: string };
    expect(body).toMatchObject({ status: "ok", ready: true, database: "embedded", databaseState: "up" });
    expect(Number.isNaN(Date.parse(body.now))).toBe(false);
  });

  it("answers 503 unavailable when the database does not answer", async () => {
    const res = await appWith(() => Promise.reject(new Error("connection refused"))).request("/api/health");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({
      status: "unavailable",
      ready: false,
      database: "embedded",
      databaseState: "down",
      reason: "database unreachable",
    });
  });

  it("answers what the database watch knows at once, without asking the database", async () => {
    let asked = 0;
    const health = { state: "restarting" as const, downSinceMs: performance.now() - 3_000, outages: 1 };
    const res = await appWith(async () => {
      asked++;
      return [];
    }, health).request("/api/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ready: false, databaseState: "restarting", downForS: 3 });
    expect(asked).toBe(0);
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
