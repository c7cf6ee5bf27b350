// The AsyncAPI document's retry prose is rendered from the delivery rules' constants, not written
// beside them: with other constants, the document says other numbers.
import { describe, expect, it, vi } from "vitest";

vi.mock("../delivery-rules.ts", () => ({
  FIRST_RETRY_DELAY_MS: 2_000,
  RETRY_WINDOW_MS: 2 * 60 * 60 * 1000,
  REQUEST_TIMEOUT_MS: 30_000,
}));

const { buildAsyncApiDocument } = await import("./build-asyncapi.ts");

describe("the AsyncAPI document's retry rule", () => {
  it("follows the constants the engine schedules by", () => {
    const { description } = buildAsyncApiDocument({ publicUrl: "http://localhost:3000" }).info;
    expect(description).toContain("Retries: 2 seconds after a failure");
    expect(description).toContain("capped at producedAt + 2 hours");
    expect(description).toContain("an attempt has 30 seconds in all");
    expect(description).not.toMatch(/\b1 (second|hour)\b|10 seconds/);
  });
});
