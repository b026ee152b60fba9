/**
 * Colour on a terminal, as `terraform plan` shows it: `+` green, `~` yellow, `-` and `-/+` red, and
 * `Error:` red. Only when the stream is a TTY; never with `NO_COLOR` set to anything but "" (the
 * https://no-color.org convention), `--no-color` (every command takes it) or `TERM=dumb`. Never
 * forced on where there is no terminal (a CI log, a file, a test's pipe get plain text).
 * Renderers stay plain text (src/plan/format.ts); colour is added here, at the last moment.
 */

let noColorFlag = false;

/** `--no-color` was given (main.ts reads it from the command line before parsing). */
export function setNoColor(on: boolean): void {
  noColorFlag = on;
}

/** Whether to colour what goes to `stream`. */
export function colorOn(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return stream.isTTY === true && env.TERM !== "dumb";
}

const CODES = { red: 31, green: 32, yellow: 33, bold: 1 } as const;
type Style = keyof typeof CODES;

function paint(style: Style, text: string): string {
  return `\x1b[${CODES[style]}m${text}\x1b[${style === "bold" ? 22 : 39}m`;
}

/** The symbol at the start of a plan line and its colour: `  + `, `      ~ `, `  -/+ `. */
const SYMBOL = /^(\s+)(-\/\+|\+|~|-)( )/;
const SYMBOL_STYLE: Record<string, Style> = { "+": "green", "~": "yellow", "-": "red", "-/+": "red" };

/** A text plan (or apply report) with its action symbols coloured, and its `Plan:` line bold. */
export function colorPlan(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const m = SYMBOL.exec(line);
      if (m) return `${m[1]}${paint(SYMBOL_STYLE[m[2]], m[2])}${line.slice(m[1].length + m[2].length)}`;
      if (/^(Plan|Apply complete|Apply incomplete):/.test(line)) return paint("bold", line);
      return line;
    })
    .join("\n");
}

/** Lines starting `Error:` with that word red (and `Warning:` yellow). */
export function colorErrors(text: string): string {
  return text.replace(/^(Error|Warning):/gm, (w) => paint(w.startsWith("E") ? "red" : "yellow", w));
}

/** Writes `text` to stdout, coloured as a plan when stdout wants colour. */
export function writePlanText(text: string): void {
  process.stdout.write(colorOn(process.stdout) ? colorPlan(text) : text);
}

/** Writes `text` to stderr, its `Error:` and `Warning:` coloured when stderr wants colour. */
export function writeErrorText(text: string): void {
  process.stderr.write(colorOn(process.stderr) ? colorErrors(text) : text);
}
