// The least-squares slope of a bench's series over time: how fast a figure drifts (RSS, p99,
// database size in the soak bench), in the series' unit per `per` of x.

/** Slope of y over x (least squares), scaled to `per` units of x; NaN for fewer than two distinct x. */
export function slope(points: Array<{ x: number; y: number }>, per = 1): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? NaN : (num / den) * per;
}
