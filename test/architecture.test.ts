import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/**
 * The layers of docs/ARCHITECTURE.md, enforced. The rule is the fenced `architecture` block of that
 * document, parsed here, so that the document and the check cannot disagree. Every import,
 * `export … from`, dynamic `import()` and `import('…')` type of every .ts, .tsx and .mjs file under
 * the checked folders is read with the TypeScript compiler; a relative specifier is resolved to the
 * layer of the file it names, and a package specifier counts only when it is the package name of
 * a layer (the SDK's). An edge between two layers must be allowed by a line of the block; an edge
 * that only carries types may also be allowed by an `imports types` line. Packages from npm and
 * Node.js's own modules are not edges.
 *
 * Unit tests (`*.test.ts`) are tests wherever they sit, and tests may import every layer.
 *
 * Limits, said plainly: a dynamic import whose specifier is neither a string literal nor a
 * constant of the same file holding one cannot be resolved and is reported, so that no import
 * escapes the check by being computed.
 */

const ROOT = path.join(import.meta.dirname, '..');
const ARCHITECTURE_DOCUMENT = path.join(ROOT, 'docs/ARCHITECTURE.md');
/** The folders whose imports are checked (tests may import every layer and are not read). */
const CHECKED_FOLDERS = ['src', 'web/src', 'sdk/src', 'bench', 'scripts', 'support'];
const SOURCE_FILE = /\.(ts|tsx|mts|mjs)$/;
/** Unit tests sit beside the code they test; like every test they may import any layer. */
const TEST_FILE = /\.test\.tsx?$/;

export interface Layer {
  name: string;
  /** Paths from the repository's root: a folder ends with "/", anything else is one file. */
  paths: string[];
  /** The package name other layers may import it by, if it is a package. */
  packageName: string | null;
}

export interface Architecture {
  layers: Layer[];
  /** Per layer: the layers it may import anything from. */
  imports: Map<string, Set<string>>;
  /** Per layer: the layers it may import types only from. */
  typeImports: Map<string, Set<string>>;
  /** Per layer: the layers it may import only by their package name. */
  packageImports: Map<string, Set<string>>;
}

export interface ImportEdge {
  file: string;
  line: number;
  specifier: string;
  typeOnly: boolean;
  dynamic: boolean;
}

export interface Violation {
  file: string;
  line: number;
  specifier: string;
  problem: string;
}

/** The `architecture` block of the document, as a rule. */
export function parseArchitecture(markdown: string): Architecture {
  const block = /^```architecture\n([\s\S]*?)^```/m.exec(markdown);
  if (!block) throw new Error('docs/ARCHITECTURE.md has no fenced ```architecture block');
  const architecture: Architecture = { layers: [], imports: new Map(), typeImports: new Map(), packageImports: new Map() };
  const allowLines: { from: string; typesOnly: boolean; targets: string[]; text: string }[] = [];
  for (const raw of block[1]!.split('\n')) {
    const text = raw.replace(/#.*$/, '').trim();
    if (text === '') continue;
    const words = text.split(/\s+/);
    if (words[0] === 'layer') {
      const [, name, ...rest] = words;
      const packageAt = rest.indexOf('package');
      const paths = packageAt === -1 ? rest : rest.slice(0, packageAt);
      const packageName = packageAt === -1 ? null : (rest[packageAt + 1] ?? null);
      if (!name || paths.length === 0) throw new Error(`architecture block: "${text}" must be "layer NAME PATH… [package NAME]"`);
      architecture.layers.push({ name, paths, packageName });
    } else if (words[1] === 'imports') {
      const typesOnly = words[2] === 'types';
      const targets = words.slice(typesOnly ? 3 : 2).filter((word) => word !== 'nothing');
      allowLines.push({ from: words[0]!, typesOnly, targets, text });
    } else {
      throw new Error(`architecture block: cannot read "${text}" (a line is "layer NAME PATH…" or "NAME imports [types] LAYER…")`);
    }
  }
  const byName = new Map(architecture.layers.map((layer) => [layer.name, layer]));
  const byPackage = new Map(architecture.layers.filter((layer) => layer.packageName !== null).map((layer) => [layer.packageName!, layer]));
  for (const line of allowLines) {
    if (!byName.has(line.from)) throw new Error(`architecture block: "${line.text}" names an undeclared layer ${line.from}`);
    for (const target of line.targets) {
      const named = byPackage.get(target);
      const layer = named ?? byName.get(target);
      if (!layer) throw new Error(`architecture block: "${line.text}" names an undeclared layer or package ${target}`);
      const table = named ? architecture.packageImports : line.typesOnly ? architecture.typeImports : architecture.imports;
      const set = table.get(line.from) ?? new Set<string>();
      set.add(layer.name);
      table.set(line.from, set);
    }
  }
  return architecture;
}

/** The layer of a file (a path from the repository's root): the longest declared path that holds it. */
export function layerOf(architecture: Architecture, file: string): Layer | null {
  const withoutExtension = file.replace(/\.(ts|tsx|mts|mjs|js)$/, '');
  let best: { layer: Layer; length: number } | null = null;
  for (const layer of architecture.layers) {
    for (const place of layer.paths) {
      const holds = place.endsWith('/') ? file.startsWith(place) : file === place || withoutExtension === place.replace(/\.(ts|tsx|mts|mjs|js)$/, '');
      if (holds && (best === null || place.length > best.length)) best = { layer, length: place.length };
    }
  }
  return best?.layer ?? null;
}

/** Every import of one file, read with the TypeScript compiler. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const edges: ImportEdge[] = [];
  // A specifier held in a constant (`const name = 'node:fs'; await import(name)`) is read from it.
  const constants = new Map<string, string>();
  const collect = (node: ts.Node): void => {
    if (ts.isVariableDeclarationList(node) && (node.flags & ts.NodeFlags.Const) !== 0) {
      for (const declaration of node.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer !== undefined && ts.isStringLiteralLike(declaration.initializer)) {
          constants.set(declaration.name.text, declaration.initializer.text);
        }
      }
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  const add = (node: ts.Node, specifier: string, typeOnly: boolean, dynamic: boolean) =>
    edges.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, specifier, typeOnly, dynamic });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      // `import { type A, type B }` carries types only, like `import type { A, B }`; a bare
      // `import './x'` runs the module.
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      add(node, node.moduleSpecifier.text, typeOnly, false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly));
      add(node, node.moduleSpecifier.text, typeOnly, false);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const argument = node.arguments[0];
      const specifier =
        argument === undefined ? '' : ts.isStringLiteralLike(argument) ? argument.text : ts.isIdentifier(argument) ? (constants.get(argument.text) ?? '') : '';
      add(node, specifier, false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The edges of a set of files (paths from the repository's root) that the architecture does not allow. */
export function checkArchitecture(architecture: Architecture, files: readonly { file: string; text: string }[]): Violation[] {
  const violations: Violation[] = [];
  const packageLayers = new Map(architecture.layers.filter((layer) => layer.packageName !== null).map((layer) => [layer.packageName!, layer]));
  for (const { file, text } of files) {
    const from = layerOf(architecture, file);
    if (from === null) {
      violations.push({ file, line: 1, specifier: '', problem: 'the file belongs to no layer of docs/ARCHITECTURE.md; add its folder to a layer' });
      continue;
    }
    for (const edge of importsOf(file, text)) {
      const report = (problem: string) => violations.push({ file, line: edge.line, specifier: edge.specifier, problem });
      if (edge.specifier === '') {
        report('a dynamic import whose specifier is not a string literal cannot be checked; import a literal path');
        continue;
      }
      if (edge.specifier.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), edge.specifier));
        const to = layerOf(architecture, target);
        if (to === null) {
          report(`${target} belongs to no layer of docs/ARCHITECTURE.md`);
          continue;
        }
        if (to.name === from.name || architecture.imports.get(from.name)?.has(to.name)) continue;
        if (edge.typeOnly && architecture.typeImports.get(from.name)?.has(to.name)) continue;
        if (architecture.packageImports.get(from.name)?.has(to.name)) {
          report(`${from.name} may import ${to.name} only by its package name ${to.packageName}, not by a path into it`);
        } else if (architecture.typeImports.get(from.name)?.has(to.name)) {
          report(`${from.name} may import only types from ${to.name} (${to.paths.join(' ')}); write \`import type\`, or move what it needs into ${from.name}`);
        } else {
          report(`${from.name} may not import ${to.name} (${to.paths.join(' ')})`);
        }
        continue;
      }
      const packageName = [...packageLayers.keys()].find((name) => edge.specifier === name || edge.specifier.startsWith(`${name}/`));
      if (packageName === undefined) continue; // a package from npm, or one of Node.js's modules
      const to = packageLayers.get(packageName)!;
      if (to.name === from.name) continue;
      if (architecture.packageImports.get(from.name)?.has(to.name) || architecture.imports.get(from.name)?.has(to.name)) continue;
      report(`${from.name} may not import ${to.name} (${packageName})`);
    }
  }
  return violations;
}

function sourceFiles(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) {
      if (entry !== 'node_modules' && entry !== 'dist') found.push(...sourceFiles(full));
    } else if (SOURCE_FILE.test(entry) && !TEST_FILE.test(entry)) found.push(full);
  }
  return found;
}

function describeViolations(violations: readonly Violation[]): string {
  return violations.map((violation) => `${violation.file}:${violation.line} imports "${violation.specifier}": ${violation.problem}`).join('\n');
}

const architecture = parseArchitecture(readFileSync(ARCHITECTURE_DOCUMENT, 'utf8'));

describe('the architecture of docs/ARCHITECTURE.md', () => {
  it('is kept by every import of src, web/src, sdk/src, bench, scripts and support', () => {
    const files = CHECKED_FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder))).map((full) => ({
      file: path.relative(ROOT, full).split(path.sep).join('/'),
      text: readFileSync(full, 'utf8'),
    }));
    assert.ok(files.length > 200, `expected the whole tree, read ${files.length} files`);
    const edges = files.reduce((count, { file, text }) => count + importsOf(file, text).length, 0);
    assert.ok(edges > 1000, `expected every import, read ${edges}`);
    const violations = checkArchitecture(architecture, files);
    assert.deepEqual(violations, [], `imports that docs/ARCHITECTURE.md does not allow:\n${describeViolations(violations)}`);
  });

  it('states the dependencies the document promises', () => {
    const allowed = (from: string, to: string) => architecture.imports.get(from)?.has(to) ?? false;
    assert.ok(allowed('http', 'domain') && allowed('domain', 'db'), 'http -> domain -> db');
    assert.ok(!allowed('db', 'domain') && !allowed('db', 'http') && !allowed('domain', 'http') && !allowed('http', 'db'), 'dependencies point one way');
    assert.deepEqual([...(architecture.typeImports.get('db') ?? [])], ['model'], 'db imports types from the domain model only');
    assert.ok(!allowed('db', 'model'), 'db imports no values from the domain model');
    for (const client of ['web', 'cli-client']) {
      assert.deepEqual([...(architecture.packageImports.get(client) ?? [])], ['sdk'], `${client} reaches the server through the SDK package`);
      assert.deepEqual([...(architecture.imports.get(client) ?? [])], [], `${client} imports no other layer`);
    }
    for (const tooling of ['bench', 'scripts', 'support']) assert.ok(!allowed(tooling, 'test'), `${tooling} never imports a test`);
  });
});

describe('the architecture check', () => {
  const check = (files: Record<string, string>) =>
    checkArchitecture(
      architecture,
      Object.entries(files).map(([file, text]) => ({ file, text })),
    );
  const problems = (files: Record<string, string>) => check(files).map((violation) => `${violation.file}: ${violation.problem}`);

  it('accepts the edges the document allows', () => {
    assert.deepEqual(
      check({
        'src/http/routes/api/x.ts': "import { a } from '../../../domain/x.ts';\nimport { b } from '../../../errors.ts';",
        'src/domain/x.ts': "import { c } from '../db/repositories/x.ts';\nexport { d } from './y.ts';",
        'src/db/repositories/x.ts': "import type { Role } from '../../domain/model.ts';\nimport { type CheckedRule } from '../../domain/model.ts';",
        'web/src/pages/X.tsx': "import { LedgerRecon } from '@ledger-recon/sdk';\nimport { useQuery } from '@tanstack/react-query';",
        'bench/x.ts': "import { startTestServer } from '../support/harness.ts';",
      }),
      [],
    );
  });

  it('fails on a value imported from the domain into db, and on db importing any other domain module', () => {
    assert.deepEqual(problems({ 'src/db/repositories/x.ts': "import { ROLES } from '../../domain/model.ts';" }), [
      'src/db/repositories/x.ts: db may import only types from model (src/domain/model.ts); write `import type`, or move what it needs into db',
    ]);
    assert.deepEqual(problems({ 'src/db/repositories/x.ts': "import type { CheckedRule } from '../../domain/matching/rule-definition.ts';" }), [
      'src/db/repositories/x.ts: db may not import domain (src/domain/)',
    ]);
    assert.deepEqual(problems({ 'src/db/x.ts': "export type { Role } from '../domain/auth/roles.ts';" }), [
      'src/db/x.ts: db may not import domain (src/domain/)',
    ]);
    assert.deepEqual(problems({ 'src/db/x.ts': "type R = import('../domain/auth/roles.ts').Role;" }), ['src/db/x.ts: db may not import domain (src/domain/)']);
  });

  it('fails on http reaching db, on the domain reaching http, and on a dynamic import', () => {
    assert.deepEqual(problems({ 'src/http/error-handler.ts': "import { transientDatabaseError } from '../db/database-errors.ts';" }), [
      'src/http/error-handler.ts: http may not import db (src/db/)',
    ]);
    assert.deepEqual(problems({ 'src/domain/x.ts': "const m = await import('../http/routes/api/x.ts');" }), [
      'src/domain/x.ts: domain may not import http (src/http/)',
    ]);
    assert.deepEqual(problems({ 'src/domain/x.ts': 'const m = await import(name);' }), [
      'src/domain/x.ts: a dynamic import whose specifier is not a string literal cannot be checked; import a literal path',
    ]);
  });

  it('fails on the web app or the client commands reaching the SDK by a path, or the server at all', () => {
    assert.deepEqual(problems({ 'web/src/x.ts': "import type { Dataset } from '../../sdk/src/index.ts';" }), [
      'web/src/x.ts: web may import sdk only by its package name @ledger-recon/sdk, not by a path into it',
    ]);
    assert.deepEqual(problems({ 'src/cli/client/x.ts': "import { AppError } from '../../errors.ts';" }), [
      'src/cli/client/x.ts: cli-client may not import core (src/errors.ts src/config.ts)',
    ]);
    assert.deepEqual(problems({ 'web/src/x.ts': "import { money } from '../../src/domain/money.ts';" }), [
      'web/src/x.ts: web may not import domain (src/domain/)',
    ]);
  });

  it('fails on tooling importing a test, and on a file outside every layer', () => {
    assert.deepEqual(problems({ 'scripts/x.ts': "import { judge } from '../test/http/fuzz.test.ts';" }), ['scripts/x.ts: scripts may not import test (test/)']);
    assert.deepEqual(problems({ 'support/x.ts': "import { a } from '../test/sdk/support.ts';" }), ['support/x.ts: support may not import test (test/)']);
    assert.deepEqual(problems({ 'elsewhere/x.ts': '' }), ['elsewhere/x.ts: the file belongs to no layer of docs/ARCHITECTURE.md; add its folder to a layer']);
  });

  it('reads the rule from the document: a block without a layer it names is refused', () => {
    assert.throws(() => parseArchitecture('```architecture\nlayer a a/\na imports b\n```\n'), /undeclared layer or package b/);
    assert.throws(() => parseArchitecture('no block here'), /no fenced/);
  });
});
