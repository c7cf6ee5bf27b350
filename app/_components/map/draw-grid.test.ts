import { describe, expect, it } from "vitest";
import { formatCoordinate, gridLines, niceStep, scaleBar, tilesFor } from "./draw-grid";
import { fitView, metresPerPixel, unproject } from "./project-tracks";

describe("niceStep", () => {
  it("rounds up to 1-2-5 × 10^k", () => {
    expect(niceStep(0.00013)).toBeCloseTo(0.0002, 12);
    expect(niceStep(0.0003)).toBeCloseTo(0.0005, 12);
    expect(niceStep(7)).toBe(10);
    expect(niceStep(1)).toBe(1);
    expect(niceStep(7, "round")).toBe(5);
    expect(niceStep(0.0016, "round")).toBeCloseTo(0.002, 12);
  });
});

describe("gridLines", () => {
  const view = fitView({
    points: [
      { latitude: 48.2, longitude: 16.37 },
      { latitude: 48.22, longitude: 16.41 },
    ],
    width: 800,
    height: 500,
  });
  it("labels lines at round coordinates that lie inside the view, where they are drawn", () => {
    const { lats, lons } = gridLines(view);
    expect(lats.length).toBeGreaterThanOrEqual(3);
    expect(lons.length).toBeGreaterThanOrEqual(3);
    for (const l of lats) {
      expect(l.at).toBeGreaterThanOrEqual(0);
      expect(l.at).toBeLessThanOrEqual(500);
      expect(unproject(view, 0, l.at).latitude).toBeCloseTo(l.value, 5); // drawn at 1/100 px
    }
    expect(lons[0]!.label).toMatch(/^16\.\d+° E$/);
  });
  it("formats hemispheres and decimals from the step", () => {
    expect(formatCoordinate(-33.865, "lat", 0.005)).toBe("33.865° S");
    expect(formatCoordinate(-0.5, "lon", 0.5)).toBe("0.5° W");
  });
});

describe("scaleBar", () => {
  it("is a round length whose pixels match the ground resolution at the centre", () => {
    const view = fitView({ points: [{ latitude: 60, longitude: 10 }], width: 400, height: 300, maxZoom: 14 });
    const bar = scaleBar(view, 120);
    expect(bar.px).toBeLessThanOrEqual(120);
    expect(bar.px).toBeGreaterThan(40);
    expect(bar.metres / bar.px / metresPerPixel(60, 14)).toBeCloseTo(1, 3);
    expect(String(bar.metres)).toMatch(/^[125]0*$/);
  });
});

describe("tilesFor", () => {
  it("covers the view with tiles at floor(zoom), scaled to the fractional zoom", () => {
    const view = { zoom: 2.5, originX: 100, originY: 100, width: 500, height: 300 };
    const tiles = tilesFor(view, "/tiles/{z}/{x}/{y}.png");
    const size = 256 * 2 ** 0.5;
    expect(tiles[0]!.size).toBeCloseTo(size, 2);
    expect(tiles.every((t) => t.url.startsWith("/tiles/2/"))).toBe(true);
    expect(Math.min(...tiles.map((t) => t.left))).toBeLessThanOrEqual(0);
    expect(Math.max(...tiles.map((t) => t.left + t.size))).toBeGreaterThanOrEqual(500);
  });
  it("wraps x round the antimeridian and drops rows off the world", () => {
    const tiles = tilesFor({ zoom: 1, originX: -200, originY: -300, width: 400, height: 400 }, "{z}/{x}/{y}");
    expect(tiles.some((t) => t.url === "1/1/0")).toBe(true);
    expect(tiles.every((t) => !t.url.endsWith("/-1"))).toBe(true);
  });
});
