import { describe, expect, it } from "vitest";
import { databaseBannerState, healthPollMs } from "./database-status";

describe("the dashboard's database banner", () => {
  it("is hidden while the workbench is ready", () => {
    expect(databaseBannerState({ ready: true, databaseState: "up" })).toEqual({ show: false });
    expect(healthPollMs(databaseBannerState({ ready: true }))).toBe(5_000);
  });

  it("says the database is restarting, and for how long", () => {
    const state = databaseBannerState({ ready: false, databaseState: "restarting", downForS: 3 });
    expect(state).toMatchObject({ show: true, title: "The database is restarting (for 3 s)" });
    expect(healthPollMs(state)).toBe(2_000);
  });

  it("says the database is unreachable, and that nothing acknowledged is lost", () => {
    const state = databaseBannerState({ ready: false, databaseState: "down" });
    expect(state).toMatchObject({ show: true, title: "The database is unreachable" });
    expect(state.show && state.detail).toMatch(/nothing the workbench acknowledged is lost/);
  });

  it("says so when the workbench itself does not answer", () => {
    expect(databaseBannerState(null)).toMatchObject({ show: true, title: "The workbench is not answering" });
  });
});
