"use strict";
/**
 * Writes the generated reference docs (`npm run docs`):
 *
 * - docs/FILE-FORMAT.md from schemas/wavix.schema.json: every key with its type, default, example,
 *   the version it appeared in (`x-since`) and its description. The schema is assembled from the
 *   kinds' fragments (src/kinds/<kind>/schema.ts; `npm run schema`), so a key is documented where it
 *   is defined.
 * - docs/CLI.md from the CLI's own `--help` (dist/, so build first), at 80 columns as a pipe gives.
 *
 * test/docs/generated.test.ts fails when a committed file differs from what this writes.
 */
const { execFileSync } = require("node:child_process");
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const YAML = require("yaml");

const root = join(__dirname, "..");

/** One line of YAML for a value (flow style), as it would be written in the file. */
function flow(value) {
  return YAML.stringify(value, { collectionStyle: "flow", lineWidth: 0 }).trim();
}

/** A schema node with its `$ref` resolved (the node's own annotations kept over the target's). */
function resolve(schema, node) {
  if (!node || !node.$ref) return node;
  const target = schema.definitions[node.$ref.split("/").pop()];
  const { $ref, ...own } = node;
  return { ...resolve(schema, target), ...own };
}

const code = (s) => `\`${s}\``;

/** `string, not empty` → `strings, not empty` (a list's items). */
const plural = (t) => t.replace(/^(string|integer|number|boolean)\b/, "$1s");

/** The type of a node in words: `string (URL)`, `integer, at least 1`, `one of sip, pstn, trunk, 1, 4, 5`. */
function typeOf(schema, raw) {
  const node = resolve(schema, raw);
  if (node.const !== undefined) return `the value ${code(flow(node.const))}`;
  if (node.enum) return `one of ${node.enum.map((v) => code(flow(v))).join(", ")}`;
  if (node.oneOf) return node.oneOf.map((n) => typeOf(schema, n)).join("; or ");
  let types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  const words = [];
  if (types.includes("array") && types.includes("string") && node.then && node.then.const !== undefined) {
    // `brands`: a list, or one literal string.
    return `list of ${plural(typeOf(schema, node.items))}; or the string ${code(node.then.const)}`;
  }
  if (types.includes("array")) {
    const items = resolve(schema, node.items);
    words.push(items && items.type === "object" ? "list of mappings (fields below)" : `list of ${plural(typeOf(schema, node.items))}`);
    types = types.filter((t) => t !== "array");
  }
  for (const t of types) {
    if (t === "object") words.push("mapping (fields below)");
    else if (t === "null") words.push("null");
    else {
      let w = t === "integer" ? "integer" : t === "number" ? "number" : t === "boolean" ? "boolean" : "string";
      const limits = [];
      if (node.format === "uri") w += " (http/https URL)";
      else if (node.format === "date") w += " (date, YYYY-MM-DD)";
      if (node.minimum !== undefined && node.maximum !== undefined) limits.push(`${node.minimum} to ${node.maximum}`);
      else if (node.minimum !== undefined) limits.push(`at least ${node.minimum}`);
      if (node.minLength !== undefined && node.minLength > 0 && t === "string" && !node.pattern) limits.push("not empty");
      if (node.pattern && !node.format) limits.push(`matching ${code(node.pattern)}`);
      words.push(limits.length > 0 ? `${w}, ${limits.join(", ")}` : w);
    }
  }
  return words.join(" or ");
}

/** Escapes a table cell. */
function cell(text) {
  return String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/**
 * The rows of one mapping: each key (dotted below its parent; `[]` for a list's items), in the
 * schema's order, then the fields of any mapping it holds.
 */
function rows(schema, node, prefix, out) {
  const n = resolve(schema, node);
  const required = new Set(n.required || []);
  for (const [key, raw] of Object.entries(n.properties || {})) {
    const p = resolve(schema, raw);
    const path = `${prefix}${key}`;
    const example = p.examples === undefined ? undefined : p.examples[0];
    const simple = example === null || typeof example !== "object" || (Array.isArray(example) && example.every((x) => x === null || typeof x !== "object"));
    out.push({
      path,
      type: typeOf(schema, raw),
      default: p.default !== undefined ? code(flow(p.default)) : required.has(key) ? "required" : "—",
      since: p["x-since"] || "?",
      example: example === undefined ? "—" : simple ? p.examples.map((e) => code(flow(e))).join(", ") : "below",
      description: p.description || "",
    });
    const items = p.items ? resolve(schema, p.items) : undefined;
    if (p.properties) rows(schema, p, `${path}.`, out);
    else if (items && items.properties) rows(schema, items, `${path}[].`, out);
  }
  return out;
}

/** docs/FILE-FORMAT.md */
function fileFormatDoc(schema) {
  const lines = [
    "# The file format: `wavix.yaml`",
    "",
    "<!-- Generated by `npm run docs` (scripts/build-docs.js) from schemas/wavix.schema.json; do not edit.",
    "     A key is described in its kind's schema fragment, src/kinds/<kind>/schema.ts (then `npm run schema`). -->",
    "",
    schema.description,
    "",
    "The JSON Schema is `schemas/wavix.schema.json` (in the package: `node_modules/wavix-sync/schemas/wavix.schema.json`).",
    "Editors that run the YAML language server complete and check the file when its first line is",
    "",
    "```yaml",
    "# yaml-language-server: $schema=./node_modules/wavix-sync/schemas/wavix.schema.json",
    "```",
    "",
    "In the tables: **Default** is the value assumed when the key is omitted; `—` means an omitted key is",
    "not managed (left as it is in the account; for `account_id`, `safety` and `audit`, see their",
    "descriptions); **Since** is the wavix-sync version that introduced the key. Keys starting with `x-`",
    "at the top level are ignored (room for YAML anchors: `x-defaults: &d {...}`, then `<<: *d`). Every",
    "problem in a file is reported at once, before any request, as `FILE:LINE:COL: message (at path)`.",
    "",
    "## Top level",
    "",
    "| Key | Type | Default | Since | Example |",
    "| --- | --- | --- | --- | --- |",
  ];
  const top = Object.entries(schema.properties);
  for (const [key, raw] of top) {
    const p = resolve(schema, raw);
    const example = p.examples && p.examples[0];
    const simple = example === null || typeof example !== "object";
    lines.push(
      `| [${code(key)}](#${key.replace(/_/g, "_")}) | ${cell(typeOf(schema, raw))} | ${(schema.required || []).includes(key) ? "required" : "—"} | ${p["x-since"] || "?"} | ${simple && example !== undefined ? cell(code(flow(example))) : "below"} |`,
    );
  }
  for (const [key, raw] of top) {
    const p = resolve(schema, raw);
    lines.push("", `## ${key}`, "", p.description || "", "");
    lines.push(`Type: ${typeOf(schema, raw)}. Since ${p["x-since"] || "?"}.${(schema.required || []).includes(key) ? " Required." : ""}`, "");
    if (p.examples) {
      lines.push("```yaml");
      for (const e of p.examples) lines.push(YAML.stringify({ [key]: e }, { lineWidth: 0 }).trimEnd());
      lines.push("```", "");
    }
    const items = p.items ? resolve(schema, p.items) : undefined;
    const fields = p.properties ? rows(schema, p, "", []) : items && items.properties ? rows(schema, items, "", []) : [];
    if (fields.length > 0) {
      if (items && items.description) lines.push(`Each item is ${items.description.charAt(0).toLowerCase()}${items.description.slice(1)}`, "");
      lines.push("| Key | Type | Default | Since | Example | Description |", "| --- | --- | --- | --- | --- | --- |");
      for (const r of fields) lines.push(`| ${code(r.path)} | ${cell(r.type)} | ${cell(r.default)} | ${r.since} | ${cell(r.example)} | ${cell(r.description)} |`);
      lines.push("");
      const nested = fields.filter((r) => r.example === "below");
      for (const r of nested) {
        const node = lookup(schema, p, r.path);
        lines.push(`${code(r.path)}, for example:`, "", "```yaml");
        for (const e of node.examples) lines.push(YAML.stringify({ [r.path.split(".").pop().replace(/\[\]$/, "")]: e }, { lineWidth: 0 }).trimEnd());
        lines.push("```", "");
      }
    }
  }
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}

/** The node at a dotted path (`destinations[].priority`) below a top-level key's node. */
function lookup(schema, node, path) {
  let n = resolve(schema, node);
  if (!n.properties && n.items) n = resolve(schema, n.items);
  for (const part of path.split(".")) {
    const key = part.replace(/\[\]$/, "");
    n = resolve(schema, n.properties[key]);
    if (part.endsWith("[]")) n = resolve(schema, n.items);
  }
  return n;
}

/** The CLI's help for the top level and each command, as a pipe (80 columns) gets it. */
function helpOf(args) {
  const env = { ...process.env, COLUMNS: "80" };
  delete env.WAVIX_BASE_URL;
  return execFileSync(process.execPath, [join(root, "bin", "wavix-sync.js"), ...args], { env, encoding: "utf8" });
}

const COMMANDS = ["validate", "plan", "apply", "audit", "export", "simulator", "demo"];

/** docs/CLI.md */
function cliDoc() {
  const lines = [
    "# Command-line reference",
    "",
    "<!-- Generated by `npm run docs` (scripts/build-docs.js) from the CLI's own --help; do not edit.",
    "     Change the command's options or help text in src/cli/ and run `npm run build && npm run docs`. -->",
    "",
    "Every command prints the same text with `--help`. `wavix-sync --version` prints the version and the",
    "API root commands talk to.",
    "",
    COMMANDS.map((c) => `[${c}](#wavix-sync-${c})`).join(" · "),
    "",
    "## wavix-sync",
    "",
    "```text",
    helpOf(["--help"]).trimEnd(),
    "```",
  ];
  for (const c of COMMANDS) lines.push("", `## wavix-sync ${c}`, "", "```text", helpOf([c, "--help"]).trimEnd(), "```");
  return lines.join("\n") + "\n";
}

/** Each generated file and its text. */
function generated() {
  const schema = JSON.parse(readFileSync(join(root, "schemas", "wavix.schema.json"), "utf8"));
  return { "docs/FILE-FORMAT.md": fileFormatDoc(schema), "docs/CLI.md": cliDoc() };
}

if (require.main === module) {
  for (const [file, text] of Object.entries(generated())) {
    writeFileSync(join(root, file), text);
    process.stdout.write(`wrote ${file}\n`);
  }
}

module.exports = { generated, fileFormatDoc, cliDoc };
