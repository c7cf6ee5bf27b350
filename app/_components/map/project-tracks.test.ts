import { describe, expect, it } from "vitest";
import {
  fitView,
  lonLatToWorld,
  metresPerPixel,
  metresToPixels,
  project,
  unproject,
  worldToLonLat,
} from "./project-tracks";

describe("Web Mercator", () => {
  it("puts (0,0) in the middle of the world and round-trips", () => {
    expect(lonLatToWorld(0, 0)).toEqual({ x: 0.5, y: 0.5 });
    const back = worldToLonLat(lonLatToWorld(48.2082, 16.3738));
    expect(back.latitude).toBeCloseTo(48.2082, 9);
    expect(back.longitude).toBeCloseTo(16.3738, 9);
  });
  it("uses the tile servers' ground resolution: 156543.03 m/px at the equator, zoom 0", () => {
    expect(metresPerPixel(0, 0)).toBeCloseTo(156_543.034, 2);
    expect(metresPerPixel(0, 17)).toBeCloseTo(1.1943, 4);
  });
  it("makes a 100 m accuracy circle twice as many pixels at 60° as at the equator", () => {
    const equator = metresToPixels(100, 0, 16);
    expect(metresToPixels(100, 60, 16) / equator).toBeCloseTo(2, 6);
    expect(equator).toBeCloseTo(100 / (156_543.03392804097 / 2 ** 16), 9);
  });
});

describe("fitView", () => {
  const points = [
    { latitude: 48.2, longitude: 16.37, radiusM: 50 },
    { latitude: 48.21, longitude: 16.39, radiusM: 500 },
  ];
  it("keeps every point and its accuracy circle inside the padded box", () => {
    const view = fitView({ points, width: 800, height: 400, padding: 20 });
    for (const p of points) {
      const c = project(view, p.latitude, p.longitude);
      const r = metresToPixels(p.radiusM, p.latitude, view.zoom);
      expect(c.x - r).toBeGreaterThanOrEqual(20 - 1e-6);
      expect(c.x + r).toBeLessThanOrEqual(780 + 1e-6);
      expect(c.y - r).toBeGreaterThanOrEqual(20 - 1e-6);
      expect(c.y + r).toBeLessThanOrEqual(380 + 1e-6);
    }
  });
  it("touches the padding on the binding axis (it zooms as far as it can)", () => {
    const view = fitView({ points, width: 800, height: 400, padding: 20 });
    const ys = points.flatMap((p) => {
      const c = project(view, p.latitude, p.longitude);
      const r = metresToPixels(p.radiusM, p.latitude, view.zoom);
      return [c.y - r, c.y + r];
    });
    const xs = points.flatMap((p) => {
      const c = project(view, p.latitude, p.longitude);
      const r = metresToPixels(p.radiusM, p.latitude, view.zoom);
      return [c.x - r, c.x + r];
    });
    const tight = Math.min(Math.abs(Math.min(...ys) - 20), Math.abs(Math.min(...xs) - 20));
    expect(tight).toBeLessThan(1e-6);
  });
  it("centres a single point without accuracy at maxZoom, and an empty list at 0,0", () => {
    const view = fitView({ points: [{ latitude: 10, longitude: 20 }], width: 300, height: 200, maxZoom: 15 });
    expect(view.zoom).toBe(15);
    const c = project(view, 10, 20);
    expect(c.x).toBeCloseTo(150, 6);
    expect(c.y).toBeCloseTo(100, 6);
    const empty = fitView({ points: [], width: 300, height: 200 });
    expect(unproject(empty, 150, 100).latitude).toBeCloseTo(0, 6);
  });
});
