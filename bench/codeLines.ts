/**
 * Lines of code of an operator example, as docs/operators.md counts them: lines holding a token
 * (neither blank nor only comments), of the module and the sibling modules it imports, with the
 * lines of its properties (the `properties` and `liveness` it declares, and the top-level
 * declarations only they use) and of its descriptions (`describeObject`, `describeMemory`)
 * counted apart.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

export interface CodeLines {
  /** Every line of code of the module and its sibling imports. */
  readonly total: number;
  /** Of those, the lines of its properties. */
  readonly properties: number;
  /** Of those, the lines describing its objects or memory for traces. */
  readonly descriptions: number;
  /** The files counted, relative to the entry's folder. */
  readonly files: readonly string[];
}

const PROPERTY_KEYS = new Set(['properties', 'liveness']);
const DESCRIPTION_KEYS = new Set(['describeObject', 'describeMemory']);

/** The lines of one file holding a token, each tagged by what it belongs to. */
function linesOf(path: string): { readonly code: Set<number>; readonly properties: Set<number>; readonly descriptions: Set<number>; readonly imports: readonly string[] } {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line;
  const code = new Set<number>();
  const visitTokens = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    if (node.getChildCount(source) === 0) {
      if (node.kind !== ts.SyntaxKind.EndOfFileToken) for (let l = lineOf(node.getStart(source)); l <= lineOf(node.getEnd()); l++) code.add(l);
      return;
    }
    node.getChildren(source).forEach(visitTokens);
  };
  visitTokens(source);

  // Ranges of the properties and descriptions given in object literals.
  const propertyRanges: ts.Node[] = [];
  const descriptionRanges: ts.Node[] = [];
  const find = (node: ts.Node): void => {
    if ((ts.isPropertyAssignment(node) || ts.isMethodDeclaration(node)) && ts.isIdentifier(node.name)) {
      if (PROPERTY_KEYS.has(node.name.text)) propertyRanges.push(node);
      if (DESCRIPTION_KEYS.has(node.name.text)) descriptionRanges.push(node);
    }
    ts.forEachChild(node, find);
  };
  find(source);

  // Top-level declarations used only from the properties (transitively) count as the properties'.
  const topLevel = new Map<string, ts.Node>();
  for (const st of source.statements) {
    if (ts.isFunctionDeclaration(st) && st.name !== undefined) topLevel.set(st.name.text, st);
    if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) topLevel.set(d.name.text, st);
  }
  const usesIn = (node: ts.Node): Set<string> => {
    const out = new Set<string>();
    const walk = (n: ts.Node): void => {
      if (ts.isIdentifier(n) && topLevel.has(n.text)) out.add(n.text);
      ts.forEachChild(n, walk);
    };
    walk(node);
    return out;
  };
  const inside = (n: ts.Node, ranges: readonly ts.Node[]): boolean => ranges.some((r) => n.getStart(source) >= r.getStart(source) && n.getEnd() <= r.getEnd());
  const owned = [...propertyRanges];
  let grew = true;
  while (grew) {
    grew = false;
    const candidates = new Set<string>();
    for (const r of owned) for (const name of usesIn(r)) candidates.add(name);
    for (const name of candidates) {
      const decl = topLevel.get(name)!;
      if (owned.includes(decl)) continue;
      // Used anywhere outside the owned ranges and outside its own declaration: shared code, not the properties'.
      let shared = false;
      const walk = (n: ts.Node): void => {
        if (shared) return;
        if (ts.isIdentifier(n) && n.text === name && !inside(n, owned) && !inside(n, [decl]) && !ts.isImportSpecifier(n.parent)) shared = true;
        ts.forEachChild(n, walk);
      };
      walk(source);
      if (!shared) {
        owned.push(decl);
        grew = true;
      }
    }
  }
  const linesIn = (ranges: readonly ts.Node[]): Set<number> => {
    const out = new Set<number>();
    for (const r of ranges) for (let l = lineOf(r.getStart(source)); l <= lineOf(r.getEnd()); l++) if (code.has(l)) out.add(l);
    return out;
  };
  const imports = source.statements
    .filter(ts.isImportDeclaration)
    .map((d) => (d.moduleSpecifier as ts.StringLiteral).text)
    .filter((m) => m.startsWith('./'))
    .map((m) => resolve(dirname(path), m.replace(/\.js$/, '.ts')));
  return { code, properties: linesIn(owned), descriptions: linesIn(descriptionRanges), imports };
}

/** The lines of code of `entry` and the sibling modules it imports (`./x.js`), each counted once. */
export function codeLines(entry: string): CodeLines {
  const seen: string[] = [];
  let total = 0;
  let properties = 0;
  let descriptions = 0;
  const visit = (path: string): void => {
    if (seen.includes(path)) return;
    seen.push(path);
    const l = linesOf(path);
    total += l.code.size;
    properties += l.properties.size;
    descriptions += [...l.descriptions].filter((x) => !l.properties.has(x)).length;
    l.imports.forEach(visit);
  };
  visit(resolve(entry));
  const base = dirname(resolve(entry));
  return { total, properties, descriptions, files: seen.map((p) => p.slice(base.length + 1)) };
}
