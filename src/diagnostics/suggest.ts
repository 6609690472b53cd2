/**
 * Did-you-mean by edit distance. `fastest-levenshtein` computes the distance (a small, dependency-free
 * library). A candidate is close enough within a third of the word's length in edits (rounded up, so
 * a swapped pair of letters in a five-letter word counts); words under three characters only match
 * a candidate that differs in case.
 */
import { distance } from "fastest-levenshtein";

/** The closest candidate to `word`, or undefined when none is close enough. Ties go to the first. */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  const length = Array.from(word).length;
  const limit = length < 3 ? 0.5 : Math.ceil(length / 3);
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    if (c === word) continue;
    // A difference in case only is always a good suggestion.
    const d = c.toLowerCase() === lower ? 0.5 : distance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** `did you mean 'x'?`, or undefined. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const best = closestName(word, candidates);
  return best === undefined ? undefined : `did you mean '${best}'?`;
}
