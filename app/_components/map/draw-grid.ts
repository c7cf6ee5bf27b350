// Offline base map: graticule lines at "nice" steps with labels, a scale bar, and the XYZ tiles
// that cover the view when a tile template is configured.
import { type MapView, metresPerPixel, project, TILE_SIZE, toPx, unproject } from "./project-tracks";

/**
 * A 1-2-5 × 10^k step: "ceil" is the nearest at or above raw (0.0003 → 0.0005, 7 → 10; scale bars),
 * "round" the nearest either way (7 → 5; grid spacing, so about `target` lines show, not half as many).
 */
export function niceStep(raw: number, mode: "ceil" | "round" = "ceil"): number {
  const exp = 10 ** Math.floor(Math.log10(raw));
  const f = raw / exp;
  if (mode === "round") return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * exp;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * exp;
}

export type GridLine = { value: number; at: number; label: string };

export function formatCoordinate(value: number, axis: "lat" | "lon", step: number): string {
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step))));
  const hemi = axis === "lat" ? (value >= 0 ? "N" : "S") : value >= 0 ? "E" : "W";
  return `${Math.abs(value).toFixed(decimals)}° ${hemi}`;
}

/** Lines of latitude (y) and longitude (x) across the view, about `target` of each. */
export function gridLines(view: MapView, target = 5): { lats: GridLine[]; lons: GridLine[] } {
  const nw = unproject(view, 0, 0);
  const se = unproject(view, view.width, view.height);
  const latStep = niceStep(Math.max(1e-9, (nw.latitude - se.latitude) / target), "round");
  const lonStep = niceStep(Math.max(1e-9, (se.longitude - nw.longitude) / target), "round");
  const lats: GridLine[] = [];
  for (let v = Math.ceil(se.latitude / latStep) * latStep; v <= nw.latitude; v += latStep) {
    const value = +v.toFixed(10);
    lats.push({
      value,
      at: toPx(project(view, value, nw.longitude).y),
      label: formatCoordinate(value, "lat", latStep),
    });
  }
  const lons: GridLine[] = [];
  for (let v = Math.ceil(nw.longitude / lonStep) * lonStep; v <= se.longitude; v += lonStep) {
    const value = +v.toFixed(10);
    lons.push({ value, at: toPx(project(view, nw.latitude, value).x), label: formatCoordinate(value, "lon", lonStep) });
  }
  return { lats, lons };
}

/** A scale bar of a round length (1-2-5 × 10^k m) no longer than maxPx, measured at the view's centre latitude. */
export function scaleBar(view: MapView, maxPx = 120): { metres: number; px: number; label: string } {
  const centreLat = unproject(view, view.width / 2, view.height / 2).latitude;
  const mpp = metresPerPixel(centreLat, view.zoom);
  let metres = niceStep(mpp * maxPx);
  if (metres / mpp > maxPx) metres = niceStep((mpp * maxPx) / 2.5);
  return {
    metres,
    px: toPx(metres / mpp),
    label: metres >= 1000 ? `${+(metres / 1000).toFixed(2)} km` : `${+metres.toFixed(1)} m`,
  };
}

export type Tile = { key: string; url: string; left: number; top: number; size: number };

/** The tiles at floor(zoom) covering the view, scaled to the fractional zoom; x wraps round the globe. */
export function tilesFor(view: MapView, template: string, maxTileZoom = 19): Tile[] {
  const z = Math.max(0, Math.min(maxTileZoom, Math.floor(view.zoom)));
  const size = TILE_SIZE * 2 ** (view.zoom - z);
  const n = 2 ** z;
  const tiles: Tile[] = [];
  const x0 = Math.floor(view.originX / size),
    x1 = Math.floor((view.originX + view.width) / size);
  const y0 = Math.max(0, Math.floor(view.originY / size)),
    y1 = Math.min(n - 1, Math.floor((view.originY + view.height) / size));
  for (let ty = y0; ty <= y1; ty++) {
    for (let tx = x0; tx <= x1; tx++) {
      const wx = ((tx % n) + n) % n;
      const url = template.replace("{z}", String(z)).replace("{x}", String(wx)).replace("{y}", String(ty));
      tiles.push({
        key: `${z}/${tx}/${ty}`,
        url,
        left: toPx(tx * size - view.originX),
        top: toPx(ty * size - view.originY),
        size: toPx(size),
      });
    }
  }
  return tiles;
}
