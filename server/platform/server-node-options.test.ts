import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_OPTIONS } from "./server-node-options.ts";

describe("SERVER_NODE_OPTIONS", () => {
  it("are the options `npm start` runs with", () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../package.json"), "utf8")) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start).toBe(`node ${SERVER_NODE_OPTIONS.join(" ")} scripts/start.cjs`);
  });
});
