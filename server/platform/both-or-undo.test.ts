import { describe, expect, it, vi } from "vitest";
import { bothOrUndo } from "./both-or-undo.ts";

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const failLater = (ms: number, message: string) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));

function undoers() {
  return { undoFirst: vi.fn(async () => {}), undoSecond: vi.fn(async () => {}) };
}

describe("bothOrUndo", () => {
  it("returns both results and undoes nothing when both succeed", async () => {
    const undo = undoers();
    await expect(bothOrUndo(later(5, "db"), later(1, "next"), undo)).resolves.toEqual(["db", "next"]);
    expect(undo.undoFirst).not.toHaveBeenCalled();
    expect(undo.undoSecond).not.toHaveBeenCalled();
  });

  it("undoes the second once it has finished when the first fails first, and throws the first's error", async () => {
    const undo = undoers();
    await expect(bothOrUndo(failLater(1, "no database"), later(20, "next"), undo)).rejects.toThrow("no database");
    expect(undo.undoSecond).toHaveBeenCalledWith("next");
    expect(undo.undoFirst).not.toHaveBeenCalled();
  });

  it("undoes the first when the second fails", async () => {
    const undo = undoers();
    await expect(bothOrUndo(later(10, "db"), failLater(1, "no pages"), undo)).rejects.toThrow("no pages");
    expect(undo.undoFirst).toHaveBeenCalledWith("db");
    expect(undo.undoSecond).not.toHaveBeenCalled();
  });

  it("throws the first step's error when both fail, and undoes nothing", async () => {
    const undo = undoers();
    await expect(bothOrUndo(failLater(5, "first"), failLater(1, "second"), undo)).rejects.toThrow("first");
    expect(undo.undoFirst).not.toHaveBeenCalled();
    expect(undo.undoSecond).not.toHaveBeenCalled();
  });

  it("still reports the failure when undoing fails", async () => {
    const undo = { undoFirst: vi.fn(async () => Promise.reject(new Error("stop failed"))), undoSecond: vi.fn() };
    await expect(bothOrUndo(later(1, "db"), failLater(5, "no pages"), undo)).rejects.toThrow("no pages");
    expect(undo.undoFirst).toHaveBeenCalled();
  });
});
