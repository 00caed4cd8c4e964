import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { DISTRIBUTED_TABLES } from '../../src/db/placement.ts';

/**
 * On Citus the tables of organizations' data are distributed by `organization_id`. A statement
 * that does not filter a distributed table on that column is sent to every shard, and a join of
 * two distributed tables stays on one shard only when both are filtered, or joined, on it. This
 * test reads the SQL of every repository (src/db/repositories/*.ts) and of the matching engine
 * (src/db/matching/*.ts) with the TypeScript compiler and fails when a statement reaches a
 * distributed table without such a filter. It needs no database.
 *
 * What is read: every string literal and template literal of a repository file. A template's
 * substitutions are replaced by `?`. A literal that starts (after blanks and comments) with
 * SELECT, INSERT, UPDATE, DELETE or WITH, or that contains FROM, JOIN or INTO, is SQL; only SQL
 * literals are searched for table references. Comments inside the SQL are removed first.
 *
 * What counts as a reference: a distributed table named after FROM, JOIN, UPDATE, INTO, USING
 * (DELETE … USING, UPDATE … FROM), or after a comma inside a FROM list, with its alias when it
 * has one.
 *
 * What counts as constrained: for an INSERT, `organization_id` among the inserted columns. For
 * any other reference, a predicate on `<alias>.organization_id` (or a bare `organization_id` for a
 * table without alias) that compares it with `=`, `= ANY` or `IN`. A reference compared with a
 * value (a parameter, a substitution) is anchored; a reference compared with another reference
 * (`m.organization_id = t.organization_id`) is constrained when that other one is, so a join is
 * accepted only when the chain ends at a value. A comparison with an alias the text does not
 * define as a distributed table (the outer row of a correlated fragment, a derived table) counts
 * as a value: the statement that defines that alias is checked where it is written.
 *
 * Granularity: a literal with no substitutions is a whole statement and must constrain its own
 * references. A literal with substitutions is composed in code (conditions collected in arrays,
 * helpers like `poolSql`, fragments held in constants), so its references may be constrained by
 * any literal of the same top-level declaration (the function, or the constant, that holds it,
 * nested functions included): that set of literals is the "statement set". A fragment defined in
 * a constant or a helper is checked where it is defined, on its own.
 *
 * Limits, said plainly: this is a lexical check, not a parser. Within one statement set, an alias
 * constrained in one composed statement also satisfies the same alias in another composed
 * statement of that declaration. A predicate under OR, or in a branch that is not taken, counts
 * like one that always applies. A condition that a helper in another file writes (rule-sql.ts)
 * is not seen: the statements here therefore write the organization condition themselves.
 * Tables named through a substitution (`FROM ${table}`) are not seen; none of them is
 * distributed today.
 *
 * Out of scope: the migrations (src/db/migrations), which change schema rather than reach one
 * organization's data, and src/db/store-copy.ts, which copies whole stores on purpose.
 */

const DB_DIRECTORY = join(import.meta.dirname, '../../src/db');
/** The folders of src/db whose files hold the SQL that reaches organizations' data. */
const SQL_FOLDERS = ['repositories', 'matching'];

/** The tables of src/db/placement.ts that hold one organization's data. */
const DISTRIBUTED = new Set<string>(DISTRIBUTED_TABLES);

/**
 * Statements that look a row up before its organization is known. Each entry names the file,
 * the top-level function and the tables it may reach unfiltered, and says why.
 */
const EXEMPTIONS: readonly { file: string; declaration: string; tables: readonly string[]; reason: string }[] = [
  {
    file: 'repositories/api-clients.ts',
    declaration: 'findClientCredentials',
    tables: ['api_clients', 'api_client_secrets'],
    reason:
      'The token endpoint finds a client by the client_id it was sent; the organization is what the client row tells. Its secrets are joined on the organization of that row.',
  },
  {
    file: 'repositories/users.ts',
    declaration: 'findActiveUsersByEmail',
    tables: ['users'],
    reason: 'Sign-in finds a person by email across organizations (an email may belong to several) before one is chosen.',
  },
  {
    file: 'repositories/users.ts',
    declaration: 'findLiveSession',
    tables: ['sessions', 'users'],
    reason:
      'A session is found by the hash of its cookie secret, which is all a browser sends; the session row names the organization, and its user is joined on it.',
  },
  {
    file: 'repositories/users.ts',
    declaration: 'findInvitationForUpdate',
    tables: ['invitations'],
    reason: 'An invitation is found by the hash of its link secret, which is all the person accepting it has.',
  },
  {
    file: 'repositories/connections.ts',
    declaration: 'listSealedSecrets',
    tables: ['connections'],
    reason: "The operator's rotation of SECRET_ENCRYPTION_KEY reseals the connection secrets of every organization, which that key seals alike.",
  },
  {
    file: 'repositories/connections.ts',
    declaration: 'lockDuePickups',
    tables: ['pickups', 'connections'],
    reason:
      'The pickup scheduler finds the due pickups of every organization (as the job queue finds due jobs); each is then moved and run within its own organization, its connection joined on it.',
  },
];

export interface Violation {
  file: string;
  declaration: string;
  table: string;
  alias: string;
  message: string;
}

interface Literal {
  text: string;
  hasSubstitutions: boolean;
}

interface Token {
  text: string;
  upper: string;
}

interface Reference {
  table: string;
  /** The name the statement uses for the row: its alias, or the table's own name. */
  name: string;
  aliased: boolean;
  /** For INSERT: whether organization_id is among the inserted columns. */
  insertHasOrganization: boolean | null;
}

const SQL_START = /^(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;
const SQL_FRAGMENT = /\b(FROM|JOIN|INTO)\b/i;

function stripComments(sql: string): string {
  return sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
}

function looksLikeSql(text: string): boolean {
  const stripped = stripComments(text).trimStart();
  return SQL_START.test(stripped) || SQL_FRAGMENT.test(stripped);
}

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /'(?:[^']|'')*'|"(?:[^"]|"")*"|\$\d+|\?(?:\.[A-Za-z_][\w$]*)?|[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*|\."[^"]*")*|\d+(?:\.\d+)?|<>|>=|<=|!=|::|\|\||->>|->|[=(),;<>+\-*/%.[\]]/g;
  for (const match of stripComments(sql).matchAll(pattern)) {
    const text = match[0];
    // String constants carry no structure; they are kept only as a value.
    tokens.push({ text: text.startsWith("'") ? "'…'" : text, upper: text.toUpperCase() });
  }
  return tokens;
}

/** Words that end a FROM list at the same parenthesis depth. */
const FROM_LIST_END = new Set([
  'WHERE',
  'GROUP',
  'ORDER',
  'LIMIT',
  'RETURNING',
  'SET',
  'HAVING',
  'WINDOW',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'SELECT',
  'VALUES',
  'OFFSET',
  'FOR',
  'CONFLICT',
]);

/** Words that cannot be an alias. */
const NOT_ALIAS = new Set([
  ...FROM_LIST_END,
  'AS',
  'ON',
  'USING',
  'JOIN',
  'LEFT',
  'RIGHT',
  'INNER',
  'FULL',
  'CROSS',
  'NATURAL',
  'OUTER',
  'LATERAL',
  'DEFAULT',
  'TABLESAMPLE',
  'WITH',
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS',
]);

const IDENTIFIER = /^[A-Za-z_][\w$]*$/;

/** The references to distributed tables in one SQL text. */
function findReferences(tokens: readonly Token[]): Reference[] {
  const references: Reference[] = [];
  const inFromList: boolean[] = [false];
  const readReference = (start: number, kind: 'insert' | 'other'): void => {
    let index = start;
    if (tokens[index]?.upper === 'ONLY') index += 1;
    const tableToken = tokens[index];
    if (!tableToken || !DISTRIBUTED.has(tableToken.text.toLowerCase())) return;
    const table = tableToken.text.toLowerCase();
    index += 1;
    let name = table;
    let aliased = false;
    if (tokens[index]?.upper === 'AS') index += 1;
    const aliasToken = tokens[index];
    if (aliasToken && IDENTIFIER.test(aliasToken.text) && !NOT_ALIAS.has(aliasToken.upper)) {
      name = aliasToken.text.toLowerCase();
      aliased = true;
      index += 1;
    }
    let insertHasOrganization: boolean | null = null;
    if (kind === 'insert') {
      insertHasOrganization = false;
      if (tokens[index]?.text === '(') {
        for (let column = index + 1; column < tokens.length && tokens[column]!.text !== ')'; column++) {
          if (tokens[column]!.text.toLowerCase() === 'organization_id') insertHasOrganization = true;
        }
      }
    }
    references.push({ table, name, aliased, insertHasOrganization });
  };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const depth = inFromList.length - 1;
    if (token.text === '(') {
      inFromList.push(false);
      continue;
    }
    if (token.text === ')') {
      if (inFromList.length > 1) inFromList.pop();
      continue;
    }
    if (FROM_LIST_END.has(token.upper)) {
      inFromList[depth] = false;
      continue;
    }
    const previous = tokens[index - 1]?.upper;
    if (token.upper === 'INTO') {
      readReference(index + 1, previous === 'INSERT' ? 'insert' : 'other');
    } else if (token.upper === 'FROM' || token.upper === 'UPDATE' || token.upper === 'USING') {
      // IS DISTINCT FROM compares values; ON CONFLICT … DO UPDATE names no table.
      if (previous === 'DISTINCT' || previous === 'DO') continue;
      readReference(index + 1, 'other');
      inFromList[depth] = true;
    } else if (token.upper === 'JOIN') {
      readReference(index + 1, 'other');
    } else if (token.text === ',' && inFromList[depth]) {
      readReference(index + 1, 'other');
    }
  }
  return references;
}

/** The column a token names when it is `<name>.organization_id` or a bare `organization_id`; the name, or '' for bare. */
function organizationColumnOwner(token: Token | undefined): string | undefined {
  if (!token) return undefined;
  const lower = token.text.toLowerCase();
  if (lower === 'organization_id') return '';
  if (lower.endsWith('.organization_id')) return lower.slice(0, -'.organization_id'.length);
  return undefined;
}

/**
 * The comparisons of organization_id in a text: each side that is a column names its owner
 * ('' for a bare column); the other side is either another column or a value (null).
 */
function organizationComparisons(tokens: readonly Token[]): { owner: string; other: string | null }[] {
  const comparisons: { owner: string; other: string | null }[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const owner = organizationColumnOwner(tokens[index]);
    if (owner === undefined) continue;
    const next = tokens[index + 1]?.upper;
    if (next === '=') {
      comparisons.push({ owner, other: organizationColumnOwner(tokens[index + 2]) ?? null });
    } else if (next === 'IN') {
      comparisons.push({ owner, other: null });
    } else if (tokens[index - 1]?.upper === '=' && organizationColumnOwner(tokens[index - 2]) === undefined) {
      comparisons.push({ owner, other: null });
    }
  }
  return comparisons;
}

/** The references of `references` that `comparisons` leave unconstrained. */
function unconstrained(references: readonly Reference[], comparisons: readonly { owner: string; other: string | null }[]): Reference[] {
  const defined = new Set(references.filter((reference) => reference.insertHasOrganization === null).map((reference) => reference.name));
  // A bare organization_id belongs to the references without alias.
  const ownersOf = (owner: string): string[] =>
    owner === ''
      ? references.filter((reference) => !reference.aliased && reference.insertHasOrganization === null).map((reference) => reference.name)
      : [owner];
  const anchored = new Set<string>();
  const edges: [string, string][] = [];
  for (const comparison of comparisons) {
    for (const owner of ownersOf(comparison.owner)) {
      if (comparison.other === null) {
        anchored.add(owner);
      } else {
        for (const other of ownersOf(comparison.other)) {
          // An alias this text does not define is the outer row, checked where it is defined.
          if (!defined.has(other)) anchored.add(owner);
          if (!defined.has(owner)) anchored.add(other);
          edges.push([owner, other]);
        }
      }
    }
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [left, right] of edges) {
      if (anchored.has(left) !== anchored.has(right)) {
        anchored.add(left);
        anchored.add(right);
        changed = true;
      }
    }
  }
  return references.filter((reference) => (reference.insertHasOrganization === null ? !anchored.has(reference.name) : !reference.insertHasOrganization));
}

/** Checks one statement set: the literals of one top-level declaration. */
export function checkStatementSet(file: string, declaration: string, literals: readonly Literal[]): Violation[] {
  const violations: Violation[] = [];
  const setComparisons = literals.flatMap((literal) => organizationComparisons(tokenize(literal.text)));
  for (const literal of literals) {
    if (!looksLikeSql(literal.text)) continue;
    const tokens = tokenize(literal.text);
    const references = findReferences(tokens);
    if (references.length === 0) continue;
    const comparisons = literal.hasSubstitutions ? setComparisons : organizationComparisons(tokens);
    for (const reference of unconstrained(references, comparisons)) {
      const what = reference.aliased ? `${reference.table} ${reference.name}` : reference.table;
      const fix =
        reference.insertHasOrganization === null
          ? `add \`${reference.aliased ? `${reference.name}.` : ''}organization_id = $n\` for ${what} (or join it on organization_id to a row that has it)`
          : `add organization_id to the columns inserted into ${reference.table}`;
      violations.push({
        file,
        declaration,
        table: reference.table,
        alias: reference.name,
        message: `${file}: ${declaration} reaches ${what} without an organization filter: ${fix}`,
      });
    }
  }
  return violations;
}

/** The name of a top-level statement: a function, the first variable of a declaration, a class. */
function declarationName(statement: ts.Statement): string {
  if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) return statement.name.text;
  if (ts.isVariableStatement(statement)) {
    const first = statement.declarationList.declarations[0];
    if (first && ts.isIdentifier(first.name)) return first.name.text;
  }
  return '(top level)';
}

/** Every string and template literal under a node, substitutions replaced by `?`. */
function collectLiterals(node: ts.Node): Literal[] {
  const literals: Literal[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isStringLiteral(child) || ts.isNoSubstitutionTemplateLiteral(child)) {
      literals.push({ text: child.text, hasSubstitutions: false });
      return;
    }
    if (ts.isTemplateExpression(child)) {
      literals.push({ text: child.head.text + child.templateSpans.map((span) => `?${span.literal.text}`).join(''), hasSubstitutions: true });
      // Literals inside the substitutions are fragments of their own.
      for (const span of child.templateSpans) visit(span.expression);
      return;
    }
    if (ts.isImportDeclaration(child) || ts.isExportDeclaration(child)) return;
    ts.forEachChild(child, visit);
  };
  visit(node);
  return literals;
}

/** Checks one repository file's text. */
export function checkSource(file: string, text: string): Violation[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return source.statements.flatMap((statement) => checkStatementSet(file, declarationName(statement), collectLiterals(statement)));
}

function isExempt(violation: Violation): boolean {
  return EXEMPTIONS.some(
    (exemption) => exemption.file === violation.file && exemption.declaration === violation.declaration && exemption.tables.includes(violation.table),
  );
}

/** The files read, by their path under src/db ("repositories/users.ts"). */
function repositoryFiles(): string[] {
  return SQL_FOLDERS.flatMap((folder) =>
    readdirSync(join(DB_DIRECTORY, folder))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => `${folder}/${name}`),
  ).sort();
}

describe('organization scope of repository SQL', () => {
  it('every statement that reaches a distributed table filters it on organization_id', () => {
    const violations = repositoryFiles().flatMap((name) => checkSource(name, readFileSync(join(DB_DIRECTORY, name), 'utf8')));
    const reported = violations.filter((violation) => !isExempt(violation)).map((violation) => violation.message);
    assert.deepEqual(reported, [], `statements without an organization filter:\n${reported.join('\n')}`);
  });

  it('every exemption is still needed', () => {
    const violations = repositoryFiles().flatMap((name) => checkSource(name, readFileSync(join(DB_DIRECTORY, name), 'utf8')));
    for (const exemption of EXEMPTIONS) {
      for (const table of exemption.tables) {
        assert.ok(
          violations.some((violation) => violation.file === exemption.file && violation.declaration === exemption.declaration && violation.table === table),
          `the exemption of ${exemption.file}: ${exemption.declaration} for ${table} is no longer needed; remove it`,
        );
      }
    }
  });

  it('reports bad statements and accepts good ones', () => {
    const check = (sql: string) => checkStatementSet('inline.ts', 'example', [{ text: sql, hasSubstitutions: false }]);
    const bad = [
      ['SELECT * FROM transactions WHERE id = $1', 'transactions'],
      ['SELECT t.id FROM transactions t JOIN matches m ON m.origin_id = t.id WHERE t.organization_id = $1', 'matches'],
      ['SELECT 1 FROM transactions o, transactions t WHERE o.organization_id = $1 AND o.id = t.id', 'transactions'],
      ['INSERT INTO run_progress (run_id, examined) VALUES ($1, $2)', 'run_progress'],
      ['UPDATE runs SET status = $2 WHERE id = $1', 'runs'],
      ['DELETE FROM import_file_chunks WHERE import_id = $1', 'import_file_chunks'],
      ['SELECT 1 FROM sessions s JOIN users u ON u.organization_id = s.organization_id WHERE s.id = $1', 'sessions'],
      ['SELECT (SELECT count(*) FROM matches m WHERE m.group_id = g.id) FROM match_groups g WHERE g.organization_id = $1', 'matches'],
      ['SELECT 1 FROM matches -- organization_id = $1\n WHERE id = $2', 'matches'],
    ] as const;
    for (const [sql, table] of bad) {
      const violations = check(sql);
      assert.ok(
        violations.some((violation) => violation.table === table),
        `not reported: ${sql}`,
      );
      assert.match(violations[0]!.message, /inline\.ts: example reaches .* add .*organization_id/);
    }
    const good = [
      'SELECT * FROM transactions WHERE organization_id = $2 AND id = $1',
      'SELECT t.id FROM transactions t JOIN matches m ON m.organization_id = t.organization_id AND m.origin_id = t.id WHERE t.organization_id = $1',
      'SELECT 1 FROM transactions o, transactions t WHERE o.organization_id = $1 AND t.organization_id = $1 AND o.id = t.id',
      'INSERT INTO run_progress (run_id, organization_id, examined) VALUES ($1, $2, $3)',
      'UPDATE runs SET status = $2 WHERE organization_id = $3 AND id = $1',
      'DELETE FROM datasets WHERE organization_id = ANY ($1::uuid[])',
      'SELECT 1 FROM jobs WHERE id = $1',
      'SELECT 1 FROM transactions t WHERE t.id IS DISTINCT FROM $1 AND t.organization_id IN ($2, $3)',
    ];
    for (const sql of good) assert.deepEqual(check(sql), [], `reported: ${sql}`);
  });

  it('lets a composed statement use the conditions its function collects, and a fragment rely on its outer row', () => {
    const composed = checkStatementSet('inline.ts', 'example', [
      { text: 't.organization_id = ?', hasSubstitutions: true },
      { text: 'SELECT t.id FROM transactions t WHERE ?', hasSubstitutions: true },
    ]);
    assert.deepEqual(composed, []);
    const whole = checkStatementSet('inline.ts', 'example', [
      { text: 'SELECT 1 FROM runs WHERE organization_id = $1', hasSubstitutions: false },
      { text: 'SELECT 1 FROM runs WHERE id = $1', hasSubstitutions: false },
    ]);
    assert.equal(whole.length, 1, 'a whole statement must carry its own filter');
    const correlated = checkStatementSet('inline.ts', 'example', [
      { text: 'SELECT 1 FROM dataset_status_counts c WHERE c.organization_id = d.organization_id AND c.dataset_id = d.id', hasSubstitutions: false },
    ]);
    assert.deepEqual(correlated, []);
  });
});
