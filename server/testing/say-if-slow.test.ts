import { afterEach, describe, expect, it, vi } from "vitest";
import { SLOW_STEP_MS, sayIfSlow } from "./say-if-slow.ts";

describe("sayIfSlow", () => {
  afterEach(() => vi.useRealTimers());

  it("names a step still pending every 10 s, and says nothing once it is done", async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    let finish!: (value: string) => void;
    const step = sayIfSlow("the pool to end", new Promise<string>((resolve) => (finish = resolve)));
    await vi.advanceTimersByTimeAsync(SLOW_STEP_MS * 2 + 1);
    finish("ended");
    await expect(step).resolves.toBe("ended");
    await vi.advanceTimersByTimeAsync(SLOW_STEP_MS * 3);
    write.mockRestore();
    expect(lines).toEqual([
      "still waiting for the pool to end after 10 s\n",
      "still waiting for the pool to end after 20 s\n",
    ]);
  });

  it("passes a failure through and stops saying anything", async () => {
    vi.useFakeTimers();
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await expect(sayIfSlow("a step", Promise.reject(new Error("no")))).rejects.toThrow("no");
    await vi.advanceTimersByTimeAsync(SLOW_STEP_MS * 2);
    expect(write).not.toHaveBeenCalled();
    write.mockRestore();
  });
});
