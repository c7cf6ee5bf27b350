// Pure geometry for CallerTrackMap: Web Mercator (EPSG:3857, the projection of every XYZ tile
// server) so the drawing lines up with tiles when NEXT_PUBLIC_MAP_TILE_URL is set, and the same
// maths draws the offline grid. World coordinates are in [0,1]; pixels = world × 256 × 2^zoom.

export const TILE_SIZE = 256;
/** WGS84 equatorial circumference in metres (the constant tile servers use). */
export const EARTH_CIRCUMFERENCE_M = 40_075_016.686;
/** Web Mercator is undefined at the poles; tile pyramids stop here. */
export const MAX_MERCATOR_LAT = 85.05112878;

export type WorldPoint = { x: number; y: number };
export type MapView = { zoom: number; originX: number; originY: number; width: number; height: number };

const clampLat = (lat: number) => Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));

export function lonLatToWorld(latitude: number, longitude: number): WorldPoint {
  const phi = (clampLat(latitude) * Math.PI) / 180;
  return { x: (longitude + 180) / 360, y: (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2 };
}

export function worldToLonLat(p: WorldPoint): { latitude: number; longitude: number } {
  const n = Math.PI - 2 * Math.PI * p.y;
  return { longitude: p.x * 360 - 180, latitude: (180 / Math.PI) * Math.atan(Math.sinh(n)) };
}

/** Ground metres one screen pixel covers at this latitude and zoom (shrinks with cos(lat)). */
export function metresPerPixel(latitude: number, zoom: number): number {
  return (EARTH_CIRCUMFERENCE_M * Math.cos((clampLat(latitude) * Math.PI) / 180)) / (TILE_SIZE * 2 ** zoom);
}

/** An accuracy radius in metres as pixels on screen at that latitude. */
export function metresToPixels(metres: number, latitude: number, zoom: number): number {
  return metres / metresPerPixel(latitude, zoom);
}

export type FitPoint = { latitude: number; longitude: number; radiusM?: number };

/**
 * The view that shows every point with its accuracy circle inside width×height less padding.
 * Fractional zoom (SVG scales freely); capped at maxZoom so one point is not a blur of grid.
 */
export function fitView(opts: {
  points: FitPoint[];
  width: number;
  height: number;
  padding?: number;
  maxZoom?: number;
  minZoom?: number;
}): MapView {
  const { width, height, padding = 32, maxZoom = 17, minZoom = 1 } = opts;
  const points = opts.points.length ? opts.points : [{ latitude: 0, longitude: 0 }];
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const p of points) {
    const w = lonLatToWorld(p.latitude, p.longitude);
    // A circle of r metres spans r / (C·cos φ) world units in both axes (Mercator is conformal).
    const r = (p.radiusM ?? 0) / (EARTH_CIRCUMFERENCE_M * Math.cos((clampLat(p.latitude) * Math.PI) / 180));
    minX = Math.min(minX, w.x - r);
    maxX = Math.max(maxX, w.x + r);
    minY = Math.min(minY, w.y - r);
    maxY = Math.max(maxY, w.y + r);
  }
  const spanX = maxX - minX,
    spanY = maxY - minY;
  const fitX = spanX > 0 ? (width - 2 * padding) / (spanX * TILE_SIZE) : Infinity;
  const fitY = spanY > 0 ? (height - 2 * padding) / (spanY * TILE_SIZE) : Infinity;
  const fit = Math.min(fitX, fitY);
  const zoom = Math.max(minZoom, Math.min(maxZoom, Number.isFinite(fit) ? Math.log2(fit) : maxZoom));
  const scale = TILE_SIZE * 2 ** zoom;
  const cx = (minX + maxX) / 2,
    cy = (minY + maxY) / 2;
  return { zoom, originX: cx * scale - width / 2, originY: cy * scale - height / 2, width, height };
}

export function project(view: MapView, latitude: number, longitude: number): { x: number; y: number } {
  const w = lonLatToWorld(latitude, longitude);
  const scale = TILE_SIZE * 2 ** view.zoom;
  return { x: w.x * scale - view.originX, y: w.y * scale - view.originY };
}

export function unproject(view: MapView, x: number, y: number) {
  const scale = TILE_SIZE * 2 ** view.zoom;
  return worldToLonLat({ x: (x + view.originX) / scale, y: (y + view.originY) / scale });
}

/**
 * Pixel positions rounded to 1/100 px for drawing: Node and the browser's Math.log/tan can differ
 * in the last bits, which would make server-rendered SVG attributes mismatch on hydration.
 */
export const toPx = (n: number) => Math.round(n * 100) / 100;
