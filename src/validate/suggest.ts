/**
 * The candidate a mistyped word most likely meant, for "did you mean …?" hints: the nearest by
 * edit distance (a swap of two neighbours counts as one edit, as in `lsit`), when it is near
 * enough to be a typo (at most a third of the longer word, and at least one edit allowed), or
 * the one candidate the word begins (`mis` for `missing`). Undefined when nothing is close.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const allowed = Math.max(1, Math.floor(Math.max(typed.length, candidate.length) / 3));
    // The lengths alone may rule it out: a 100,000-character word costs no 100,000-row table.
    if (Math.abs(typed.length - candidate.length) > allowed) continue;
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  const prefixed = typed.length >= 2 ? candidates.filter((candidate) => candidate.toLowerCase().startsWith(typed)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
