/** How many single-character edits turn `a` into `b` (Levenshtein). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/**
 * The candidate closest to `word`, for a "did you mean …?", when it is close enough to be the
 * likely intent: at most a third of the word's length away (two edits for short words).
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (best === undefined || d < best.d) best = { candidate, d };
  }
  return best !== undefined && best.d <= Math.max(2, Math.floor(word.length / 3))
    ? best.candidate
    : undefined;
}
