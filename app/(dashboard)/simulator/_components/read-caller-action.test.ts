import { describe, expect, it } from "vitest";
import { readDeviceInfo, readFix } from "./read-caller-action";

describe("readFix", () => {
  it("reads the typed numbers, an empty altitude as none", () => {
    expect(readFix({ latitude: "59.9625", longitude: "10.7685", accuracy: "8", altitude: "" })).toEqual({
      latitude: 59.9625,
      longitude: 10.7685,
      accuracy: 8,
      altitude: null,
    });
    expect(readFix({ latitude: "-33.5", longitude: "151", accuracy: "0", altitude: "12.5" }).altitude).toBe(12.5);
    expect(readFix({ latitude: "59", longitude: "10", accuracy: "8", altitude: "0" }).altitude).toBe(0);
  });

  it("leaves text that is no number for the schema to refuse", () => {
    expect(readFix({ latitude: "north", longitude: "10", accuracy: "8", altitude: "" }).latitude).toBeNaN();
  });
});

describe("readDeviceInfo", () => {
  it("is a deviceInfo action with the battery as a number", () => {
    expect(readDeviceInfo({ battery: "35", connection: "Cellular4G" })).toEqual({
      action: "deviceInfo",
      batteryLevel: 35,
      internetConnectionType: "Cellular4G",
    });
  });
});
