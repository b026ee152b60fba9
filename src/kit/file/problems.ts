/**
 * Where a value sits in the desired-state file and what is wrong with it: the vocabulary of the
 * file's messages (`FILE:LINE:COL: message (at path)`, docs/CONTRACT.md part 3), shared by the
 * file loader (src/config) and each kind's file checks (src/kinds/<kind>/file.ts).
 */
import type { PathSegment } from "./yaml-nodes";

/** Where a value came from in the file, for `FILE:LINE:COL: message (at path)` messages. */
export interface SourcePosition {
  file: string;
  line: number;
  col: number;
}

/** One problem found in the file. `toString()` form: `FILE:LINE:COL: message (at path)`. */
export interface ConfigProblem {
  file: string;
  line: number;
  col: number;
  message: string;
  /** e.g. `numbers[0].sms_enabled`; empty for the document root. */
  path: string;
}

/** A problem before positions are attached: where (path, and whether the key or the value) and what. */
export interface RawProblem {
  segments: PathSegment[];
  /** Point at the key of the last segment rather than at its value. */
  atKey?: boolean;
  message: string;
}
