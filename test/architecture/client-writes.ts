/**
 * Who reaches a write of the Wavix client (docs/ARCHITECTURE.md, "The write gate"): every
 * reference — a call, a method taken as a value, `c["createTrunk"]`, a destructured
 * `{ createTrunk }` — that the TypeScript checker resolves to a write method declared by the
 * `WavixClient` class, outside the files allowed to make it (the gate). A call through the gate's
 * `GatedClient` resolves to the gate's own override, so it is not one. Faithful to the type
 * checker; blind to `any`-typed clients (the code base has none: strict mode) and to reflection
 * by computed names.
 */
import path from "node:path";
import ts from "typescript";

export interface WriteReference {
  /** The file, relative to `root`, and the 1-based line. */
  file: string;
  line: number;
  method: string;
}

export interface ClientWriteOptions {
  /** Every file of the program (absolute). */
  readonly files: readonly string[];
  /** Paths are reported relative to it. */
  readonly root: string;
  /** The file declaring the client class (absolute). */
  readonly clientFile: string;
  readonly className: string;
  /** The write methods of that class. */
  readonly methods: readonly string[];
  /** Files that may reference them (the client itself, the gate). */
  readonly allowed: (relative: string) => boolean;
  readonly compilerOptions?: ts.CompilerOptions;
}

/** Every reference to a client write method outside the allowed files. */
export function clientWritesOutside(o: ClientWriteOptions): WriteReference[] {
  const program = ts.createProgram(o.files as string[], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, skipLibCheck: true, noEmit: true, types: ["node"], esModuleInterop: true, resolveJsonModule: true, ...o.compilerOptions });
  const checker = program.getTypeChecker();
  const methods = new Set(o.methods);
  const clientFile = path.resolve(o.clientFile);
  const out: WriteReference[] = [];

  const isClientWrite = (sym: ts.Symbol | undefined): boolean => {
    if (!sym) return false;
    if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    if (!methods.has(sym.name)) return false;
    return (sym.declarations ?? []).some((d) => {
      if (path.resolve(d.getSourceFile().fileName) !== clientFile) return false;
      const cls = d.parent;
      return ts.isClassLike(cls) && cls.name?.text === o.className;
    });
  };

  for (const sf of program.getSourceFiles()) {
    const abs = path.resolve(sf.fileName);
    if (!o.files.some((f) => path.resolve(f) === abs)) continue;
    const rel = path.relative(o.root, abs).split(path.sep).join("/");
    if (o.allowed(rel)) continue;
    const report = (node: ts.Node, name: string) => out.push({ file: rel, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, method: name });
    // The checker is asked only about a name that is one of the methods: a reference to a class
    // member carries its declared name (`c.x`, `c["x"]`, `{ x }`), so no other can be one, and
    // typing every expression of the program was most of the scan's time.
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && methods.has(node.name.text) && isClientWrite(checker.getSymbolAtLocation(node.name))) report(node, node.name.text);
      else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && methods.has(node.argumentExpression.text) && isClientWrite(checker.getSymbolAtLocation(node.argumentExpression))) {
        report(node, node.argumentExpression.text);
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const prop = node.propertyName ?? node.name;
        if ((ts.isIdentifier(prop) || ts.isStringLiteral(prop)) && methods.has(prop.text)) {
          const type = checker.getTypeAtLocation(node.parent);
          if (isClientWrite(type.getProperty(prop.text))) report(node, prop.text);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}
