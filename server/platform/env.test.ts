import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";

describe("parseEnv", () => {
  it("needs no configuration: one origin on port 3000, embedded database", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
    expect([env.AUTH_URL, env.BASE_URL, env.PORTAL_URL]).toEqual(Array(3).fill("http://localhost:3000"));
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toBe(path.resolve(".data"));
  });

  it("derives the origins from PORT, and lets each be overridden", () => {
    expect(parseEnv({ PORT: "4000" }).PUBLIC_URL).toBe("http://localhost:4000");
    const split = parseEnv({ PUBLIC_URL: "https://wb.example.test/", AUTH_URL: "https://id.example.test" });
    expect(split.PUBLIC_URL).toBe("https://wb.example.test");
    expect(split.AUTH_URL).toBe("https://id.example.test");
    expect(split.BASE_URL).toBe("https://wb.example.test");
  });

  it("binds loopback and needs no sign-in by default; any other bind is shared", () => {
    expect(parseEnv({})).toMatchObject({ HOST: "127.0.0.1", ACCESS_MODE: "local" });
    expect(parseEnv({ HOST: "::1" }).ACCESS_MODE).toBe("local");
    expect(parseEnv({ HOST: "0.0.0.0" }).ACCESS_MODE).toBe("shared");
    expect(parseEnv({ HOST: "192.168.1.20" }).ACCESS_MODE).toBe("shared");
    expect(parseEnv({ WORKBENCH_ACCESS: "shared" }).ACCESS_MODE).toBe("shared");
    expect(() => parseEnv({ WORKBENCH_ACCESS: "local" })).toThrow(/WORKBENCH_ACCESS/);
    expect(parseEnv({ ALLOWED_HOSTS: " WB.example.test:8443, ,proxy.local" }).ALLOWED_HOSTS).toEqual([
      "wb.example.test:8443",
      "proxy.local",
    ]);
  });

  it("reads OUTBOUND_ALLOW into its entries, empty by default, and refuses a bad or never-allowed entry", () => {
    expect(parseEnv({}).OUTBOUND_ALLOW).toEqual([]);
    expect(parseEnv({ OUTBOUND_ALLOW: " cad.lab , 10.0.0.0/8,*.corp.example " }).OUTBOUND_ALLOW).toEqual([
      "cad.lab",
      "10.0.0.0/8",
      "*.corp.example",
    ]);
    expect(() => parseEnv({ OUTBOUND_ALLOW: "10.0.0.0/40" })).toThrow(
      'OUTBOUND_ALLOW: "10.0.0.0/40" has a bad prefix length (0–32)',
    );
    expect(() => parseEnv({ OUTBOUND_ALLOW: "169.254.169.254" })).toThrow(
      "is a cloud-metadata address, which is never allowed",
    );
  });

  it("keeps data 14 days by default; RETENTION_DAYS takes whole days, 0 keeps everything", () => {
    expect(parseEnv({}).RETENTION_DAYS).toBe(14);
    expect(parseEnv({ RETENTION_DAYS: "0" }).RETENTION_DAYS).toBe(0);
    expect(parseEnv({ RETENTION_DAYS: "90" }).RETENTION_DAYS).toBe(90);
    for (const bad of ["-1", "1.5", "forever", "3651"])
      expect(() => parseEnv({ RETENTION_DAYS: bad })).toThrow(/RETENTION_DAYS/);
  });

  it("names every invalid variable", () => {
    expect(() => parseEnv({ PORT: "http", DATABASE_URL: "mysql://x" })).toThrow(/PORT[\s\S]*DATABASE_URL/);
  });
});
