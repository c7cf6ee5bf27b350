// Two builds compared row by row (inbound-ab.bench.ts). These machines' speed drifts by a fifth
// within minutes, so only rows run back to back are compared, and a pair's order matters too: a
// server loaded right after its own previous row ran ~3-7 % faster than one that sat idle while the
// other was loaded (2026-11-27). Pairs alternate their order, and the estimate averages the two
// orders' means, in which that advantage enters with opposite signs.

export type Pair = { a: number; b: number; aFirst: boolean };

export type Comparison = {
  /** B's rate over A's, a geometric mean over the pairs with the order's effect taken out. */
  ratio: number;
  /** How much faster the pair's first row ran than its second, the builds' difference taken out; null with one order only. */
  firstRowAdvantage: number | null;
  /** Pairs in which B's row ran faster. */
  bAhead: number;
  pairs: number;
};

export function comparePairs(pairs: Pair[]): Comparison {
  const logRatio = (p: Pair) => Math.log(p.b / p.a);
  const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const aFirst = pairs.filter((p) => p.aFirst).map(logRatio);
  const bFirst = pairs.filter((p) => !p.aFirst).map(logRatio);
  // A pair with A first holds (difference − advantage), one with B first (difference + advantage).
  const both = aFirst.length > 0 && bFirst.length > 0;
  const difference = both ? (mean(aFirst) + mean(bFirst)) / 2 : mean(pairs.map(logRatio));
  return {
    ratio: Math.exp(difference),
    firstRowAdvantage: both ? Math.exp((mean(bFirst) - mean(aFirst)) / 2) : null,
    bAhead: pairs.filter((p) => p.b > p.a).length,
    pairs: pairs.length,
  };
}
