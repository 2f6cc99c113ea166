/**
 * "Did you mean …?" for an unknown option or flag: the closest known name by edit distance,
 * when it is close enough to be the likely intent (a typo, not another word).
 */

/**
 * The known name closest to `name`, compared case-insensitively, when at most a third of its
 * characters (or two, for a short name: a swapped pair) differ; `undefined` otherwise.
 *
 * @param name - what the user wrote, e.g. `snapshotDir`.
 * @param known - the valid names, e.g. `['snapshotsDir', 'keysFile']`.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(wanted.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance (insertions, deletions, substitutions), two rows at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * ` (did you mean "x"?)` for an unknown name, or an empty string when nothing is close.
 *
 * @param name - the unknown name.
 * @param known - the valid names.
 * @param prefix - written before the suggestion (e.g. `--` for flags).
 */
export function didYouMean(name: string, known: readonly string[], prefix = ''): string {
  const close = closestName(name, known);
  return close === undefined ? '' : ` (did you mean ${prefix}${close}?)`;
}
