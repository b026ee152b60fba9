/**
 * Loading the desired-state file (docs/CONTRACT.md part 3): YAML with positions, the JSON Schema, the
 * semantic checks, then normalising into DesiredState. Every problem is found in one run, before
 * any request, and reported as `FILE:LINE:COL: message (at path)`.
 *
 * Two paths (issue #15): a plain file is first read by the fast parser (fast-parse.ts: data and
 * the positions of list items only); when it is not plain or any check finds a problem, the file
 * is read again with `yaml`'s Document, which keeps a position for every node, and every message
 * comes from that path. Positions are so kept only as long as errors need them.
 */
import { readFileSync, statSync } from "node:fs";
import type { ErrorObject } from "ajv";
import type { Document } from "yaml";
import { yamlLib } from "../kit/file/yaml-lib";
import type { ConfigProblem, DesiredState } from "./types";
import { formatPath, locate, nodeLinePos, pointerToSegments, scalarSource, type PathSegment } from "../kit/file/yaml-nodes";
import { schemaErrors } from "./schema";
import { closestKey, orList, valueErrorMessage, valueErrorRank } from "../kit/file/messages";
import { asciiUrls, findSecretKeys, findSecretValues, isSecretKey, SECRET_KEY_MESSAGE, SECRET_VALUE_MESSAGE, semanticProblems, type RawProblem } from "./semantic";
import { normalizeDesiredState, type PositionLookup } from "./normalize";
import { decodeConfigBytes, MAX_CONFIG_BYTES, tooLargeMessage } from "./decode";
import { checkExpansion, MAX_EXPANDED_VALUES } from "./aliases";
import { fastParse, linePositions } from "./fast-parse";

/** Outcome of loading: the typed state, or every problem found (sorted by position). */
export type LoadResult = { ok: true; state: DesiredState } | { ok: false; problems: ConfigProblem[] };

/**
 * `FILE:LINE:COL: message (at numbers[0].sms_enabled)`. The `(at …)` part is omitted for the
 * document root (empty path); `LINE:COL` is omitted for problems about the whole file (line 0),
 * such as a file that cannot be read.
 */
export function formatProblem(p: ConfigProblem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.col}` : p.file;
  return `${where}: ${p.message}${p.path ? ` (at ${p.path})` : ""}`;
}

/** Options of `loadDesiredState` and `parseDesiredState`. */
export interface LoadOptions {
  /**
   * Secret values (the API key) that must not appear anywhere in the file, not even inside a URL
   * (`?k=<key>`): such a value is refused at its position and never echoed. Empty and short
   * (under 8 characters) entries are ignored.
   * @default []
   */
  readonly secretValues?: readonly (string | undefined)[];
}

/** Reads and checks a file. Never throws: an unreadable file is one problem (no stack). */
export function loadDesiredState(file: string, options: LoadOptions = {}): LoadResult {
  const read = readDesiredStateFile(file);
  return read.ok ? parseDesiredStateBytes(read.bytes, file, options) : read.result;
}

const wholeFile = (file: string, message: string): { ok: false; problems: ConfigProblem[] } => ({ ok: false, problems: [{ file, line: 0, col: 0, path: "", message }] });

/**
 * The first half of {@link loadDesiredState}: the file's bytes, or the one problem that it cannot be
 * read (or is too large). For a caller that needs the very bytes it checks (their digest).
 */
export function readDesiredStateFile(file: string): { ok: true; bytes: Buffer } | { ok: false; result: LoadResult } {
  try {
    // The size first, so a huge file is refused without being read (see decode.ts).
    const st = statSync(file);
    if (st.isFile() && st.size > MAX_CONFIG_BYTES) return { ok: false, result: wholeFile(file, tooLargeMessage(st.size)) };
    return { ok: true, bytes: readFileSync(file) };
  } catch (err) {
    return { ok: false, result: wholeFile(file, `cannot read file: ${readErrorReason(err)}`) };
  }
}

/** The second half of {@link loadDesiredState}: a file's bytes decoded and checked. */
export function parseDesiredStateBytes(bytes: Buffer, file: string, options: LoadOptions = {}): LoadResult {
  // A pipe or special file has no size up front: checked once read.
  if (bytes.length > MAX_CONFIG_BYTES) return wholeFile(file, tooLargeMessage(bytes.length));
  const decoded = decodeConfigBytes(bytes);
  if (!decoded.ok) return { ok: false, problems: [{ file, line: decoded.line, col: decoded.col, path: "", message: decoded.message }] };
  return parseDesiredState(decoded.text, file, options);
}

function readErrorReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "it is a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Like `loadDesiredState`, from text already read; `file` names it in messages and in the state. */
export function parseDesiredState(text: string, file: string, options: LoadOptions = {}): LoadResult {
  return parseValidFast(text, file, options) ?? parseWithPositions(text, file, options);
}

/**
 * A document already in memory (a Pulumi resource's args as the file's entry) through the same
 * checks as a file, without writing it out and parsing it again: the fast path's checks on a copy
 * of the data; only when one finds a problem is the document written as JSON (which is YAML) and
 * read by the full path, which words every problem. Its state carries no positions. The native
 * plugin's Check runs this once per resource (docs/SPEED.md, "The native plugin's per-call cost").
 */
export function checkDesiredData(doc: Record<string, unknown>, file: string): LoadResult {
  const text = JSON.stringify(doc);
  // A copy: the checks rewrite URLs in place (asciiUrls), and JSON is what the full path would read.
  const data = JSON.parse(text) as unknown;
  return validFast(data, file, {}, () => undefined) ?? parseWithPositions(text, file);
}

/**
 * The fast path: the state of a plain, valid file, or `undefined` (not plain, or some check
 * failed: the caller then reads the file again with positions and words the problems).
 */
function parseValidFast(text: string, file: string, options: LoadOptions): LoadResult | undefined {
  const parsed = fastParse(text);
  if (!parsed) return undefined;
  let at: ((offset: number) => { line: number; col: number }) | undefined;
  return validFast(parsed.data, file, options, (segs) => {
    const offset = segs.length === 2 ? parsed.itemOffsets.get(String(segs[0]))?.[Number(segs[1])] : undefined;
    if (offset === undefined) return undefined;
    // Lines are only needed for the items' positions, once the checks have passed.
    at ??= linePositions(text);
    return { file, ...at(offset) };
  });
}

/** The fast path's checks and normalising of parsed data; `undefined` when any check fails. */
function validFast(data: unknown, file: string, options: LoadOptions, position: PositionLookup): LoadResult | undefined {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  if (hasSecretKey(data)) return undefined;
  if (hasSecretValue(data, secretValuesOf(options))) return undefined;
  // As the full path does before its checks: internationalised hosts to their ASCII form.
  asciiUrls(data);
  if (schemaErrors(data).length > 0) return undefined;
  // Lines are only needed to word a problem, and any problem goes to the full path anyway.
  if (semanticProblems(data, () => 0, formatPath).length > 0) return undefined;
  const state = normalizeDesiredState(data as Record<string, unknown>, file, position);
  return { ok: true, state };
}

/** The secret values worth looking for: short or empty ones would match by chance. */
function secretValuesOf(options: LoadOptions): string[] {
  return (options.secretValues ?? []).filter((v): v is string => typeof v === "string" && v.length >= 8);
}

/** Any string value, at any depth, holding one of the secret values (the full path reports it). */
function hasSecretValue(value: unknown, secrets: readonly string[]): boolean {
  if (secrets.length === 0) return false;
  if (typeof value === "string") return secrets.some((s) => value.includes(s));
  if (Array.isArray(value)) return value.some((v) => hasSecretValue(v, secrets));
  if (value === null || typeof value !== "object") return false;
  for (const k in value) if (hasSecretValue((value as Record<string, unknown>)[k], secrets)) return true;
  return false;
}

/** Any mapping key, at any depth, that names a secret (the full path reports it). */
function hasSecretKey(value: unknown, checked = new Map<string, boolean>()): boolean {
  if (Array.isArray(value)) return value.some((v) => hasSecretKey(v, checked));
  if (value === null || typeof value !== "object") return false;
  for (const k in value) {
    // The same few keys repeat on every item: test each name once.
    let secret = checked.get(k);
    if (secret === undefined) checked.set(k, (secret = isSecretKey(k)));
    if (secret || hasSecretKey((value as Record<string, unknown>)[k], checked)) return true;
  }
  return false;
}

/**
 * The full path: `yaml`'s Document, a position for every node, every problem worded. Exported for
 * the test that holds the fast path to the same results (test/config/fast-parse.test.ts).
 */
export function parseWithPositions(text: string, file: string, options: LoadOptions = {}): LoadResult {
  const { isAlias, LineCounter, parseDocument, visit } = yamlLib();
  const lineCounter = new LineCounter();
  // `merge`: YAML 1.1 merge keys (`<<: *defaults`), which people use with anchors.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });

  const at = (offset: number): { line: number; col: number } => lineCounter.linePos(offset);

  // YAML syntax first: when the text does not parse, the structure below it cannot be trusted.
  const syntax: ConfigProblem[] = [];
  // A key twice in one mapping is named, and the other checks still run (YAML would keep the last).
  const duplicates = duplicateKeys(doc, lineCounter);
  for (const d of duplicates) {
    syntax.push({ file, ...d.at, path: formatPath(d.segments), message: `duplicate key ${JSON.stringify(d.key)}: first at line ${d.firstLine}; a key may appear once in a mapping (YAML would silently keep only the last)` });
  }
  const named = duplicates.length > 0;
  const fatal = doc.errors.filter((e) => !(named && e.code === "DUPLICATE_KEY"));
  let tooDeep = false;
  for (const e of [...fatal, ...doc.warnings]) {
    const deep = /call stack/i.test(e.message);
    // The parser may run out of stack at several levels of one nesting, as many times as the stack
    // it started with allows: said once, where it first stopped.
    if (deep && tooDeep) continue;
    tooDeep ||= deep;
    const message =
      e.code === "MULTIPLE_DOCS"
        ? "the file holds more than one YAML document (---); keep everything in one"
        : deep
          ? "the file nests lists or mappings too deeply to read"
          : lowerFirst(e.message);
    syntax.push({ file, ...at(e.pos[0]), path: "", message: `YAML: ${message}` });
  }
  if (fatal.length > 0) return { ok: false, problems: sortProblems(syntax) };

  let data: unknown;
  const firstAlias = (): { line: number; col: number } => {
    let pos = { line: 1, col: 1 };
    visit(doc, {
      Alias: (_k, node) => {
        if (isAlias(node) && node.range) pos = at(node.range[0]);
        return visit.BREAK;
      },
    });
    return pos;
  };
  try {
    // Aliases become shared references here (cheap); their expanded size is capped just below,
    // instead of yaml's use count, which refused ordinary anchors used more than 100 times.
    data = doc.toJS({ maxAliasCount: -1 });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, problems: [...syntax, { file, ...firstAlias(), path: "", message: `YAML: ${lowerFirst(message)}` }] };
  }
  const expansion = checkExpansion(data);
  if (!expansion.ok) {
    const message =
      expansion.reason === "cycle"
        ? "YAML: an alias refers to a node that contains it, so the file never ends"
        : `YAML: the aliases expand to more than ${MAX_EXPANDED_VALUES.toLocaleString("en-US")} values (an alias bomb?); write the repeated parts out or use fewer nested aliases`;
    return { ok: false, problems: [...syntax, { file, ...firstAlias(), path: "", message }] };
  }
  if (data === null || data === undefined) {
    return {
      ok: false,
      problems: [...syntax, { file, line: 1, col: 1, path: "", message: 'the file is empty: expected a mapping starting with "version: 1"' }],
    };
  }

  const problemAt = (raw: RawProblem): ConfigProblem => {
    const found = locate(doc, raw.segments);
    const node = raw.atKey && found.key ? found.key : found.node;
    return { file, ...nodeLinePos(node, lineCounter), path: formatPath(raw.segments), message: raw.message };
  };

  const raws: RawProblem[] = [];

  // Secrets anywhere, reported at the key; nothing else is said about (or quoted from) what is under it.
  const secrets = findSecretKeys(doc.contents as Parameters<typeof findSecretKeys>[0]);
  for (const s of secrets) raws.push({ segments: s.segments, atKey: true, message: `${JSON.stringify(s.key)}: ${SECRET_KEY_MESSAGE}` });
  const secretValues = secretValuesOf(options);
  for (const segs of findSecretValues(doc.contents as Parameters<typeof findSecretValues>[0], secretValues)) {
    raws.push({ segments: segs, message: SECRET_VALUE_MESSAGE });
    secrets.push({ segments: segs, key: "" });
  }
  const secretPaths = secrets.map((s) => s.segments);
  const underSecret = (segs: PathSegment[]): boolean =>
    secretPaths.some((sp) => sp.length <= segs.length && sp.every((seg, i) => String(seg) === String(segs[i])));

  asciiUrls(data);
  raws.push(...schemaProblems(schemaErrors(data), data, doc).filter((p) => !underSecret(p.segments)));

  const lineOf = (segs: PathSegment[]): number => nodeLinePos(locate(doc, segs).node, lineCounter).line;
  raws.push(...semanticProblems(data, lineOf, formatPath).filter((p) => !underSecret(p.segments)));

  const problems = [...syntax, ...raws.map(problemAt)];
  if (problems.length > 0) return { ok: false, problems: sortProblems(problems) };

  const state = normalizeDesiredState(data as Record<string, unknown>, file, (segs) => {
    const found = locate(doc, segs);
    return found.found ? { file, ...nodeLinePos(found.node, lineCounter) } : undefined;
  });
  return { ok: true, state };
}

/** Maps ajv's errors to one human problem per node (ajv repeats itself through if/then and $ref). */
function schemaProblems(errors: ErrorObject[], data: unknown, doc: Document): RawProblem[] {
  const out: RawProblem[] = [];
  const bestByPath = new Map<string, ErrorObject>();

  for (const err of errors) {
    // "must match then schema" says nothing; and trunk_id with/without trunk is worded by the
    // semantic checks (one message instead of ajv's required + if + type).
    if (err.keyword === "if") continue;
    if (/^#\/definitions\/destination\/(then|else)\//.test(err.schemaPath)) continue;

    const segs = pointerToSegments(err.instancePath, data);
    if (err.keyword === "additionalProperties") {
      const key = String(err.params.additionalProperty);
      const props = (err.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      const known = Object.keys(props);
      const guess = closestKey(key, known);
      const message = guess
        ? `unknown key ${JSON.stringify(key)}: did you mean ${JSON.stringify(guess)}?`
        : `unknown key ${JSON.stringify(key)} (expected ${orList(known)})`;
      out.push({ segments: [...segs, key], atKey: true, message });
      continue;
    }
    if (err.keyword === "required") {
      const missing = String(err.params.missingProperty);
      const hint = missing === "version" ? ' (add "version: 1")' : "";
      out.push({ segments: segs, message: `missing required key ${JSON.stringify(missing)}${hint}` });
      continue;
    }
    const prev = bestByPath.get(err.instancePath);
    if (!prev || valueErrorRank(err) < valueErrorRank(prev)) bestByPath.set(err.instancePath, err);
  }

  for (const [pointer, err] of bestByPath) {
    const segs = pointerToSegments(pointer, data);
    const last = segs[segs.length - 1];
    const field = typeof last === "string" ? last : undefined;
    const found = locate(doc, segs);
    const message =
      pointer === "" && err.keyword === "type"
        ? `expected a mapping with "version: 1" at the top of the file, got ${describeTop(data)}`
        : valueErrorMessage(err, field, scalarSource(found.node));
    out.push({ segments: segs, message });
  }
  return out;
}

function describeTop(data: unknown): string {
  if (Array.isArray(data)) return "a list";
  if (typeof data === "string") return "text";
  return typeof data === "number" || typeof data === "boolean" ? `the ${typeof data} ${String(data)}` : "something else";
}

function sortProblems(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems
    .filter((p) => {
      const k = `${p.line}:${p.col}:${p.path}:${p.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => a.line - b.line || a.col - b.col || a.path.localeCompare(b.path) || a.message.localeCompare(b.message));
}

/** Keys that come twice in one mapping, at the later key, with the line of the first. */
function duplicateKeys(doc: Document, lineCounter: import("yaml").LineCounter): Array<{ key: string; segments: PathSegment[]; at: { line: number; col: number }; firstLine: number }> {
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  const out: Array<{ key: string; segments: PathSegment[]; at: { line: number; col: number }; firstLine: number }> = [];
  const walk = (node: unknown, segments: PathSegment[], depth: number): void => {
    if (depth > 200) return;
    if (isMap(node)) {
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key) || pair.key.range === undefined || pair.key.range === null) continue;
        // Merge keys may repeat (`<<: *a` then `<<: *b`); yaml merges them (its value may be a symbol).
        if (typeof pair.key.value === "symbol" || pair.key.value === "<<") continue;
        const key = String(pair.key.value);
        const line = lineCounter.linePos(pair.key.range[0]).line;
        const first = seen.get(key);
        if (first === undefined) seen.set(key, line);
        else out.push({ key, segments: [...segments, key], at: lineCounter.linePos(pair.key.range[0]), firstLine: first });
        walk(pair.value, [...segments, key], depth + 1);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...segments, i], depth + 1));
    }
  };
  walk(doc.contents, [], 0);
  return out;
}
