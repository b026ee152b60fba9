/**
 * Values made safe inside Markdown (plan comments, audit reports): small and free of imports, so a
 * renderer that needs only these (the audit's) does not load the plan engine with them.
 */

/**
 * Text made inert for GitHub/GitLab Markdown, inside or outside HTML blocks: HTML special characters
 * as entities; the inline Markdown punctuation backslash-escaped (values sit mid-line, in table
 * cells or after a list marker, so block syntax such as a leading `-` cannot start there); `@` and
 * `#` as entities so a value never mentions a person or links an issue; `|` escaped so a table row
 * stays one row; line breaks flattened.
 */
export function mdText(value: string): string {
  // One pass, so an entity made here is never escaped again.
  return value.replace(/\r\n|[\r\n&<>@#\\`*_[\]~|]/g, (c) => MD_ESCAPES[c] ?? `\\${c}`);
}

/**
 * A value as inline code, which GitHub and GitLab show literally (no entities, no emphasis, no
 * mentions): the fence is one backtick longer than the longest run inside, `|` is escaped because
 * GFM splits table cells before it sees code spans, and line breaks are flattened.
 */
export function mdCode(value: string): string {
  if (value === "") return "";
  const text = value.replace(/\r\n|\r|\n/g, " ").replace(/\|/g, "\\|");
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // A space inside the fence when the text starts or ends with a backtick (CommonMark strips one).
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

export const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "@": "&#64;", "#": "&#35;", "\r\n": " ", "\r": " ", "\n": " " };
const MD_ESCAPES: Record<string, string> = { ...HTML_ESCAPES };
