/**
 * What a kind's provider `check` and identity guards say (docs/CONTRACT.md part 6): the file's own
 * problems as property failures, unknown properties, and the refusal when a stored id now names
 * another Wavix object. Plain data: no engine type in it.
 */
import type { ConfigProblem } from "../file/problems";
import { snakeToCamel, type Props } from "./props";
import { PULUMI_WORDS, type FaceWords } from "./words";

/** One property a `check` refuses, and why (the shape both Pulumi faces carry). */
export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

/**
 * A problem of the file's checks as a check failure: the path inside the one entry, with the
 * file's snake_case names in their camelCase argument spelling.
 */
export function failureOf(p: ConfigProblem, entryPrefix: RegExp, rename: (path: string) => string = snakeToCamel): CheckFailure {
  const path = p.path.replace(entryPrefix, "");
  const reason = p.message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, snakeToCamel);
  return { property: rename(path), reason };
}

export function unknownKeyFailures(news: Props, allowed: readonly string[]): CheckFailure[] {
  return Object.keys(news)
    .filter((k) => k !== "__provider" && !allowed.includes(k))
    .map((k) => ({ property: k, reason: `unknown property ${JSON.stringify(k)} (expected one of ${allowed.join(", ")})` }));
}

/**
 * The error when an id stored in state now names another Wavix object (the stack was pointed at
 * another account or base URL, or the object was renamed or reused): nothing is written.
 */
export function identityMismatch(type: string, id: string, stored: string, found: string, words: FaceWords = PULUMI_WORDS): Error {
  const w = words;
  return new Error(
    `${type} id ${id} now names ${found}, not ${stored}: the ${w.holder} may point at another account or base URL (${w.config("baseUrl")}, ${w.config("apiKey")}), ` +
      `or it changed outside ${w.engine}; refusing to read or write it. Check ${w.configPlace}; if the change is intended, ${w.forget} and ${w.adoptAgain}`,
  );
}
