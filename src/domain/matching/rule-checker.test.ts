import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.ts';
import type { DatasetColumn } from '../../db/repositories/transaction-query.ts';
import { canonicalJson } from '../json.ts';
import { datasetIdsNamedBy, mergeRuleBody, orderRuleKeys, patternsNamedBy } from './rule-body.ts';
import { checkRule, inspectRule, RULE_PROBLEMS_LIMIT } from './rule-checker.ts';
import { NORMALIZATIONS, RULE_LIMITS, RULE_TOTAL_CONDITIONS_LIMIT, type RuleBody } from './rule-definition.ts';
import { parseDuration } from './rule-durations.ts';
import { patternProblem } from './rule-patterns.ts';
import { runsBefore, shadowingWarnings, shadows, type RankedRule } from './rule-shadowing.ts';

const BANK = '11111111-1111-4111-8111-111111111111';
const LEDGER = '22222222-2222-4222-8222-222222222222';
const CARD = '33333333-3333-4333-8333-333333333333';
/** A second bank account, with the bank's columns: an origin for targets that include the bank. */
const STATEMENT = '55555555-5555-4555-8555-555555555555';
const MISSING = '44444444-4444-4444-8444-444444444444';

const columns = new Map<string, DatasetColumn[]>([
  [
    BANK,
    [
      { name: 'counterparty', type: 'string' },
      { name: 'valueDate', type: 'date' },
      { name: 'flagged', type: 'boolean' },
      { name: 'payoutId', type: 'string' },
    ],
  ],
  [
    LEDGER,
    [
      { name: 'invoiceNumber', type: 'number' },
      { name: 'valueDate', type: 'date' },
      { name: 'payoutId', type: 'string' },
      { name: 'flagged', type: 'boolean' },
    ],
  ],
  [
    STATEMENT,
    [
      { name: 'counterparty', type: 'string' },
      { name: 'valueDate', type: 'date' },
      { name: 'flagged', type: 'boolean' },
      { name: 'payoutId', type: 'string' },
    ],
  ],
  [
    CARD,
    [
      { name: 'valueDate', type: 'string' },
      { name: 'payoutId', type: 'number' },
    ],
  ],
]);

/** A valid rule from the bank to the ledger; `overrides` replace its members. */
function rule(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Invoice reference', origin: { datasetIds: [BANK] }, target: { datasetIds: [LEDGER] }, ...overrides };
}

function problemsOf(raw: unknown) {
  return inspectRule(raw, columns).problems;
}

/** The single problem a rule has: its path and message. */
function onlyProblem(raw: unknown): { path: string; message: string } {
  const problems = problemsOf(raw);
  assert.equal(problems.length, 1, JSON.stringify(problems, null, 1));
  return problems[0]!;
}

function assertProblem(raw: unknown, path: string, message: RegExp) {
  const problems = problemsOf(raw);
  assert.ok(
    problems.some((problem) => problem.path === path && message.test(problem.message)),
    `expected ${path} ${message} in ${JSON.stringify(problems, null, 1)}`,
  );
}

describe('checkRule: a valid rule', () => {
  it('fills in every default, and keeps what was written', () => {
    const { body, checked } = checkRule(rule(), columns);
    assert.deepEqual(body, {
      name: 'Invoice reference',
      enabled: true,
      priority: 10,
      origin: { datasetIds: [BANK], audience: [] },
      target: { datasetIds: [LEDGER], audience: [] },
      cardinality: '1:1',
      conditions: [],
      groupBy: null,
      maxGroupSize: 5,
      outcome: 'match',
      adjustment: null,
      currency: 'same',
      runOnIngest: false,
    });
    assert.deepEqual(checked.outcome, { kind: 'match' });
    assert.equal(checked.anyCurrency, false);
    assert.equal(checked.adjustmentReason, null);
    assert.deepEqual([...checked.origin.audience.entries()], [[BANK, []]]);
  });

  it('refuses a dataset on both sides: a transaction could be allocated as an origin and again as a target', () => {
    assertProblem(rule({ target: { datasetIds: [LEDGER, BANK] } }), '/target/datasetIds/1', /is on both sides/);
  });

  it('takes the default priority it is given, and integers written as digit strings', () => {
    assert.equal(checkRule(rule(), columns, { defaultPriority: 70 }).body.priority, 70);
    const { body } = checkRule(rule({ priority: '40', maxGroupSize: '7', cardinality: '1:N' }), columns);
    assert.equal(body.priority, 40);
    assert.equal(body.maxGroupSize, 7);
  });

  it('parses the audience per dataset of the side, with the SearchQuery grammar', () => {
    const audience = [{ path: 'PayoutId', search: { type: 'string', value: 'P1', exact: true } }];
    const { body, checked } = checkRule(rule({ origin: { datasetIds: [STATEMENT], audience }, target: { datasetIds: [LEDGER, BANK], audience } }), columns);
    assert.deepEqual(body.origin.audience, audience);
    assert.deepEqual(checked.target!.audience.get(LEDGER), [
      { type: 'string', field: { source: 'custom', name: 'payoutId', type: 'string' }, values: ['P1'], exact: true },
    ]);
    assert.equal(checked.target!.audience.get(BANK)!.length, 1);
  });

  it('checks an amount condition: sign and tolerances as exact decimal text', () => {
    const { body, checked } = checkRule(rule({ conditions: [{ type: 'amount', sign: 'opposite', tolerance: { absolute: 0.5, percent: '0.1' } }] }), columns);
    assert.deepEqual(body.conditions, [{ type: 'amount', sign: 'opposite', tolerance: { absolute: '0.5', percent: '0.1' } }]);
    assert.deepEqual(checked.conditions, [{ type: 'amount', sign: 'opposite', toleranceAbsolute: '0.5', tolerancePercent: '0.1' }]);
    const exact = checkRule(rule({ conditions: [{ type: 'amount', sign: 'absolute' }] }), columns);
    assert.deepEqual(exact.body.conditions, [{ type: 'amount', sign: 'absolute' }]);
    assert.deepEqual(exact.checked.conditions, [{ type: 'amount', sign: 'absolute', toleranceAbsolute: null, tolerancePercent: null }]);
  });

  it('checks a date condition on timestamp (the default path) or a date column of every dataset', () => {
    const standard = checkRule(rule({ conditions: [{ type: 'date', min: '-P2D', max: 'PT12H' }] }), columns);
    assert.deepEqual(standard.body.conditions, [{ type: 'date', path: 'timestamp', min: '-P2D', max: 'PT12H' }]);
    assert.deepEqual(standard.checked.conditions, [
      {
        type: 'date',
        path: 'timestamp',
        field: { source: 'standard', name: 'timestamp', type: 'date' },
        minMilliseconds: -172_800_000,
        maxMilliseconds: 43_200_000,
      },
    ]);
    const custom = checkRule(rule({ conditions: [{ type: 'date', path: 'valueDate', min: 0, max: 86_400_000 }] }), columns);
    assert.deepEqual(custom.checked.conditions[0], {
      type: 'date',
      path: 'valueDate',
      field: { source: 'custom', name: 'valueDate', type: 'date' },
      minMilliseconds: 0,
      maxMilliseconds: 86_400_000,
    });
  });

  it('checks equals, contains and similar with fields, extraction, normalization and constants', () => {
    const conditions = [
      { type: 'equals', origin: { path: 'reference', extract: 'INV-?(\\d+)', normalize: ['trim-zeros'] }, target: { path: 'invoiceNumber' } },
      {
        type: 'contains',
        origin: { path: 'counterparty', normalize: ['casefold', 'alnum'] },
        target: { path: 'description', normalize: ['casefold', 'alnum'] },
      },
      { type: 'similar', origin: { path: 'description' }, target: { path: 'description' }, min: 0.75 },
      { type: 'equals', origin: { path: 'flagged' }, target: { value: 'true' } },
    ];
    const { body, checked } = checkRule(rule({ conditions }), columns);
    assert.deepEqual(body.conditions, conditions);
    assert.deepEqual(checked.conditions[0], {
      type: 'equals',
      origin: {
        kind: 'field',
        path: 'reference',
        field: { source: 'standard', name: 'reference', type: 'string' },
        extract: 'INV-?(\\d+)',
        normalize: ['trim-zeros'],
      },
      target: { kind: 'field', path: 'invoiceNumber', field: { source: 'custom', name: 'invoiceNumber', type: 'number' }, extract: null, normalize: [] },
    });
    assert.equal((checked.conditions[2] as { min: number }).min, 0.75);
    assert.deepEqual((checked.conditions[3] as { target: unknown }).target, { kind: 'constant', value: 'true' });
  });

  it('accepts every normalization, in the order written', () => {
    for (const step of NORMALIZATIONS) {
      const { checked } = checkRule(
        rule({ conditions: [{ type: 'equals', origin: { path: 'reference', normalize: [step] }, target: { path: 'reference' } }] }),
        columns,
      );
      assert.deepEqual((checked.conditions[0] as { origin: { normalize: string[] } }).origin.normalize, [step]);
    }
    const all = [...NORMALIZATIONS].reverse();
    const { body } = checkRule(
      rule({ conditions: [{ type: 'equals', origin: { path: 'reference', normalize: all }, target: { path: 'reference' } }] }),
      columns,
    );
    assert.deepEqual((body.conditions[0] as { origin: { normalize: string[] } }).origin.normalize, all);
  });

  it('checks "any" groups, nested', () => {
    const { checked } = checkRule(
      rule({
        conditions: [
          {
            any: [
              { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
              {
                any: [
                  { type: 'amount', sign: 'same' },
                  { type: 'date', min: 'P0D', max: 'P1D' },
                ],
              },
            ],
          },
        ],
      }),
      columns,
    );
    const group = checked.conditions[0] as { type: string; alternatives: { type: string }[] };
    assert.equal(group.type, 'any');
    assert.deepEqual(
      group.alternatives.map((alternative) => alternative.type),
      ['equals', 'any'],
    );
  });

  it('checks grouped, classification and adjusted rules', () => {
    const grouped = checkRule(rule({ cardinality: 'N:M', groupBy: { origin: ['payoutId'], target: ['PAYOUTID'] }, maxGroupSize: 10 }), columns);
    assert.deepEqual(grouped.checked.groupBy, {
      origin: [{ source: 'custom', name: 'payoutId', type: 'string' }],
      target: [{ source: 'custom', name: 'payoutId', type: 'string' }],
      originPaths: ['payoutId'],
      targetPaths: ['PAYOUTID'],
    });
    const classification = checkRule(
      {
        name: 'Fees',
        origin: { datasetIds: [BANK] },
        outcome: { status: 'informative' },
        conditions: [{ type: 'contains', origin: { value: 'FEE' }, target: { value: 'x' } }].slice(1),
      },
      columns,
    );
    assert.equal(classification.body.target, null);
    assert.equal(classification.checked.target, null);
    assert.deepEqual(classification.checked.outcome, { kind: 'classify', status: 'informative' });
    const adjusted = checkRule(
      rule({ adjustment: { reason: 'rounding' }, currency: 'any', conditions: [{ type: 'amount', sign: 'same', tolerance: { absolute: '0.01' } }] }),
      columns,
    );
    assert.equal(adjusted.checked.adjustmentReason, 'rounding');
    assert.equal(adjusted.checked.anyCurrency, true);
  });
});

describe('checkRule: problems', () => {
  it('reports every problem at once, each at its pointer, and throws them as one invalid_request', () => {
    const raw = rule({ nmae: 'x', cardinality: '2:2', conditions: [{ type: 'amount' }], maxGroupSize: 11 });
    const problems = problemsOf(raw);
    assert.deepEqual(
      problems.map((problem) => problem.path),
      ['/nmae', '/cardinality', '/conditions/0/sign', '/maxGroupSize'],
    );
    assert.throws(
      () => checkRule(raw, columns),
      (error: unknown) =>
        error instanceof AppError &&
        error.kind === 'invalid_request' &&
        error.details.length === 4 &&
        /^\/nmae: unknown property "nmae"; did you mean "name"\?.* \(and 3 more problems; see details/.test(error.message),
    );
  });

  it('lists at most RULE_PROBLEMS_LIMIT problems and counts the rest', () => {
    const raw = rule(Object.fromEntries(Array.from({ length: RULE_PROBLEMS_LIMIT + 5 }, (_, index) => [`extra${index}`, 1])));
    const inspection = inspectRule(raw, columns);
    assert.equal(inspection.problems.length, RULE_PROBLEMS_LIMIT);
    assert.equal(inspection.omittedProblems, 5);
  });

  it('refuses a body that is not an object, and names what is missing', () => {
    assert.deepEqual(onlyProblem([]), { path: '', message: 'must be a JSON object: a rule {"name", "origin", "target", "conditions", ...}' });
    assert.deepEqual(
      problemsOf({}).map((problem) => problem.path),
      ['/name', '/origin', '/target'],
    );
  });

  it('names unknown and read-only properties, everywhere', () => {
    assertProblem(rule({ version: 3 }), '/version', /is set by the service and cannot be written/);
    assertProblem(rule({ origin: { datasetIds: [BANK], audiance: [] } }), '/origin/audiance', /did you mean "audience"\?; allowed here: datasetIds, audience/);
    assertProblem(rule({ conditions: [{ type: 'amount', sign: 'same', tolerence: {} }] }), '/conditions/0/tolerence', /did you mean "tolerance"/);
    assertProblem(
      rule({ conditions: [{ type: 'equals', origin: { path: 'reference', normalise: [] }, target: { path: 'reference' } }] }),
      '/conditions/0/origin/normalise',
      /did you mean "normalize"/,
    );
    assertProblem(
      rule({ conditions: [{ any: [{ type: 'amount', sign: 'same' }], type: 'any' }] }),
      '/conditions/0/type',
      /is written \{"any": \[\.\.\.\]\} alone/,
    );
    assertProblem(rule({ outcome: { status: 'informative', why: 1 } }), '/outcome/why', /allowed here: status/);
  });

  it('checks the name, booleans, choices and integer ranges', () => {
    assert.match(onlyProblem(rule({ name: '   ' })).message, /must be 1 to 200 characters/);
    assert.match(onlyProblem(rule({ name: 'x'.repeat(RULE_LIMITS.nameLength + 1) })).message, /must be 1 to 200 characters/);
    assert.match(onlyProblem(rule({ name: 'a\u0000b' })).message, /NUL/);
    assert.match(onlyProblem(rule({ enabled: 'yes' })).message, /must be true or false/);
    assert.match(onlyProblem(rule({ runOnIngest: 1 })).message, /must be true or false/);
    assert.match(onlyProblem(rule({ currency: 'EUR' })).message, /must be one of "same", "any"/);
    assert.match(onlyProblem(rule({ priority: 1.5 })).message, /must be an integer from 0 to 1000000/);
    assert.match(onlyProblem(rule({ cardinality: '1:N', maxGroupSize: 0 })).message, /must be an integer from 1 to 10/);
    assert.match(onlyProblem(rule({ outcome: 'auto' })).message, /must be "match" .*"suggest" .*\{"status"/);
  });

  it('reports datasets that are malformed, repeated, missing, or too many', () => {
    assert.deepEqual(onlyProblem(rule({ origin: { datasetIds: [MISSING] } })), {
      path: '/origin/datasetIds/0',
      message: 'no dataset with this id in this organization (the list of sources shows every dataset)',
    });
    assertProblem(rule({ origin: { datasetIds: ['bank'] } }), '/origin/datasetIds/0', /must be a dataset id \(a UUID/);
    assertProblem(
      rule({ target: { datasetIds: [LEDGER, LEDGER.toUpperCase()] } }),
      '/target/datasetIds/1',
      /repeats dataset .* \(already at \/target\/datasetIds\/0\)/,
    );
    assertProblem(rule({ target: { datasetIds: [] } }), '/target/datasetIds', /must be a non-empty array/);
    assertProblem(
      rule({ target: { datasetIds: Array.from({ length: RULE_LIMITS.datasetsPerSide + 1 }, () => LEDGER) } }),
      '/target/datasetIds',
      /at most 20 datasets/,
    );
    assertProblem(rule({ target: { audience: [] } }), '/target/datasetIds', /is required/);
  });

  it('reports audience problems at the audience pointer, listing the valid paths of the dataset that lacks one', () => {
    const single = onlyProblem(
      rule({
        origin: {
          datasetIds: [BANK],
          audience: [
            { path: 'amount', search: { type: 'money', value: '1' } },
            { path: 'conterparty', search: { type: 'string', value: 'x' } },
          ],
        },
      }),
    );
    assert.equal(single.path, '/origin/audience/1/path');
    assert.match(single.message, /^unknown path "conterparty"; did you mean "counterparty"\? Valid paths: id \(string\), .*counterparty \(string\)/);
    const twoDatasets = onlyProblem(
      rule({
        origin: { datasetIds: [STATEMENT] },
        target: { datasetIds: [LEDGER, BANK], audience: [{ path: 'invoiceNumber', search: { type: 'number', value: 1 } }] },
      }),
    );
    assert.equal(twoDatasets.path, '/target/audience/0/path');
    assert.match(twoDatasets.message, new RegExp(`unknown path "invoiceNumber" in dataset ${BANK}; valid paths there: .*counterparty`));
    assertProblem(
      rule({ origin: { datasetIds: [BANK], audience: [{ path: 'amount', search: { type: 'money', value: 'many' } }] } }),
      '/origin/audience/0/search/value',
      /must be a decimal amount/,
    );
    assertProblem(rule({ origin: { datasetIds: [BANK], audience: {} } }), '/origin/audience', /must be an array of SearchQuery objects/);
  });

  it('requires a path in every dataset of its side, naming the same column with the same type', () => {
    assertProblem(
      rule({ target: { datasetIds: [LEDGER, CARD] }, conditions: [{ type: 'date', path: 'valueDate', min: 0, max: 1 }] }),
      '/conditions/0/path',
      /names different columns in the target datasets \(valueDate, a date field, .*valueDate, a string field/,
    );
    assertProblem(
      rule({
        origin: { datasetIds: [STATEMENT] },
        target: { datasetIds: [LEDGER, BANK] },
        conditions: [{ type: 'equals', origin: { path: 'reference' }, target: { path: 'invoiceNumber' } }],
      }),
      '/conditions/0/target/path',
      new RegExp(`unknown path "invoiceNumber" on the target side in dataset ${BANK}; valid paths there:`),
    );
  });

  it('checks amount conditions', () => {
    assert.match(onlyProblem(rule({ conditions: [{ type: 'amount', sign: 'both' }] })).message, /"same" \(both sides carry the same sign\)/);
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'amount', sign: 'same', tolerance: { absolute: '-0.01' } }] })).message,
      /must be a non-negative decimal such as "0.50"/,
    );
    assert.match(onlyProblem(rule({ conditions: [{ type: 'amount', sign: 'same', tolerance: { absolute: 'ten' } }] })).message, /non-negative decimal/);
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'amount', sign: 'same', tolerance: { percent: '100.5' } }] })).message,
      /must be at most 100 \(percent\)/,
    );
    assert.match(onlyProblem(rule({ conditions: [{ type: 'amount', sign: 'same', tolerance: {} }] })).message, /gives neither "absolute" nor "percent"/);
    assert.match(onlyProblem(rule({ conditions: [{ type: 'amount', sign: 'same', tolerance: '1' }] })).message, /must be an object \{"absolute"/);
    assert.deepEqual(
      onlyProblem(
        rule({
          conditions: [
            { type: 'amount', sign: 'same' },
            { type: 'amount', sign: 'opposite' },
          ],
        }),
      ).path,
      '/conditions/1',
    );
  });

  it('checks date conditions: the field type, the durations and the window', () => {
    assertProblem(
      rule({ conditions: [{ type: 'date', path: 'counterparty', min: 0, max: 1 }] }),
      '/conditions/0/path',
      /"counterparty" is a string field on the origin side; a date condition needs a date field/,
    );
    assertProblem(
      rule({ conditions: [{ type: 'date', path: 'amount', min: 0, max: 1 }] }),
      '/conditions/0/path',
      /"amount" is a money field on the target side/,
    );
    assert.deepEqual(onlyProblem(rule({ conditions: [{ type: 'date', min: 'P1M', max: 'P1D' }] })), {
      path: '/conditions/0/min',
      message: '"P1M" counts years or months, which have no fixed length; write days instead (e.g. "P30D")',
    });
    assert.match(onlyProblem(rule({ conditions: [{ type: 'date', min: '2 days', max: 'P1D' }] })).message, /must be an ISO 8601 duration such as "P5D"/);
    assert.match(onlyProblem(rule({ conditions: [{ type: 'date', min: 1.5, max: 'P1D' }] })).message, /whole number of milliseconds/);
    assert.match(onlyProblem(rule({ conditions: [{ type: 'date', min: 'P0D' }] })).message, /is required: the latest the target may be/);
    assert.match(onlyProblem(rule({ conditions: [{ type: 'date', min: 'P0D', max: 'P400D' }] })).message, /within 366 days either way/);
    assert.match(onlyProblem(rule({ conditions: [{ type: 'date', min: 'P2D', max: 'P1D' }] })).message, /is later than "max" .*swap them/);
  });

  it('checks text conditions: field types, values, constants and similarity', () => {
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: { path: 'amount' }, target: { path: 'reference' } }] })).message,
      /money field; compare amounts with an amount condition/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: { path: 'valueDate' }, target: { path: 'reference' } }] })).message,
      /date field; compare dates with a date condition/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'similar', origin: { path: 'reference' }, target: { path: 'invoiceNumber' }, min: 0.5 }] })).message,
      /a similarity of numbers means nothing, so use an equals condition/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'similar', origin: { path: 'reference' }, target: { path: 'reference' }, min: 1.2 }] })).message,
      /must be a number from 0 to 1/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'similar', origin: { path: 'reference' }, target: { path: 'reference' } }] })).message,
      /is required: the least trigram similarity/,
    );
    assert.match(onlyProblem(rule({ conditions: [{ type: 'equals', origin: { value: 'a' }, target: { value: 'b' } }] })).message, /compares two constants/);
    assert.match(onlyProblem(rule({ conditions: [{ type: 'equals', origin: { value: '' }, target: { path: 'reference' } }] })).message, /non-empty string/);
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: { value: 42 }, target: { path: 'reference' } }] })).message,
      /write 42 as text \("42"\)/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: { value: 'x', normalize: ['casefold'] }, target: { path: 'reference' } }] })).message,
      /applies to a field; a constant is compared as written/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: { value: 'x', path: 'reference' }, target: { path: 'reference' } }] })).message,
      /gives both "path" and "value"/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: 'reference', target: { path: 'reference' } }] })).message,
      /must be \{"path": "<field>"\}/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: { path: 'reference', normalize: ['lower'] }, target: { path: 'reference' } }] })).message,
      /must be one of "casefold", "digits", "alnum", "trim-zeros"/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: { path: 'reference', normalize: ['digits', 'digits'] }, target: { path: 'reference' } }] }))
        .message,
      /repeats "digits"/,
    );
    assert.match(
      onlyProblem(rule({ conditions: [{ type: 'equals', origin: { path: 'reference', extract: 'INV(\\d+)(x)' }, target: { path: 'reference' } }] })).message,
      /^the pattern has 2 capturing groups/,
    );
    assert.match(onlyProblem(rule({ conditions: [{ type: 'regex' }] })).message, /must be one of "amount", "date", "equals", "contains", "similar"/);
    assert.match(onlyProblem(rule({ conditions: [{}] })).message, /is required: one of "amount"/);
    assert.match(onlyProblem(rule({ conditions: 'all' })).message, /must be an array of conditions/);
  });

  it('bounds "any" groups: depth, size and the total number of conditions', () => {
    const leaf = { type: 'amount', sign: 'same' };
    const deep = { any: [{ any: [{ any: [{ any: [leaf] }] }] }] };
    assert.deepEqual(onlyProblem(rule({ conditions: [deep] })).path, '/conditions/0/any/0/any/0/any/0/any');
    assert.match(onlyProblem(rule({ conditions: [{ any: [] }] })).message, /must be a non-empty array of conditions/);
    assert.match(
      onlyProblem(rule({ conditions: [{ any: Array.from({ length: RULE_LIMITS.alternatives + 1 }, () => leaf) }] })).message,
      /at most 10 alternatives/,
    );
    assert.match(onlyProblem(rule({ conditions: Array.from({ length: RULE_LIMITS.conditions + 1 }, () => leaf) })).message, /at most 20 conditions/);
    const wide = {
      any: Array.from({ length: 10 }, () => ({
        any: Array.from({ length: 10 }, () => ({ type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } })),
      })),
    };
    const total = problemsOf(rule({ conditions: [wide, { type: 'amount', sign: 'same' }] }));
    assert.equal(total.length, 1, JSON.stringify(total));
    assert.match(total[0]!.message, new RegExp(`more than ${RULE_TOTAL_CONDITIONS_LIMIT} conditions in all`));
  });

  it('checks groupBy: cardinality, paths, their number per side', () => {
    assert.match(onlyProblem(rule({ groupBy: { origin: ['payoutId'], target: ['payoutId'] } })).message, /groups need a cardinality of "1:N", "N:1" or "N:M"/);
    assert.deepEqual(onlyProblem(rule({ cardinality: '1:N', groupBy: { origin: ['payout'], target: ['payoutId'] } })).path, '/groupBy/origin/0');
    assert.match(
      onlyProblem(rule({ cardinality: '1:N', groupBy: { origin: ['payoutId'], target: ['payoutId', 'reference'] } })).message,
      /has 2 paths but "origin" has 1/,
    );
    assert.match(
      onlyProblem(rule({ cardinality: '1:N', groupBy: { origin: ['payoutId', 'payoutId'], target: ['payoutId', 'reference'] } })).message,
      /repeats "payoutId"/,
    );
    assertProblem(rule({ cardinality: '1:N', groupBy: { origin: [], target: ['payoutId'] } }), '/groupBy/origin', /must be an array of 1 to 5 paths/);
    assert.equal(checkRule(rule({ cardinality: '1:N', groupBy: null }), columns).body.groupBy, null);
  });

  it('checks outcomes: a classification has no target and compares with constants; a match needs a target', () => {
    const classification = { name: 'Fees', origin: { datasetIds: [BANK] }, outcome: { status: 'out of scope' } };
    assert.deepEqual(onlyProblem({ ...classification, target: { datasetIds: [LEDGER] } }).path, '/target');
    assert.deepEqual(onlyProblem({ ...classification, cardinality: 'N:1' }).path, '/cardinality');
    assert.deepEqual(onlyProblem({ ...classification, conditions: [{ type: 'date', min: 0, max: 1 }] }).path, '/conditions/0/type');
    assert.deepEqual(
      onlyProblem({ ...classification, conditions: [{ type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } }] }).path,
      '/conditions/0/target/path',
    );
    assert.equal(
      checkRule({ ...classification, conditions: [{ type: 'equals', origin: { path: 'type' }, target: { value: 'FEE' } }] }, columns).body.conditions.length,
      1,
    );
    assert.match(onlyProblem(rule({ target: null, outcome: 'suggest' })).message, /is required for a rule that matches/);
    assert.match(onlyProblem(rule({ outcome: { status: 'done' } })).message, /must be one of "informative", "out of scope"/);
  });

  it('requires an amount condition with a tolerance for an adjustment', () => {
    assert.match(onlyProblem(rule({ adjustment: { reason: 'fee' } })).message, /needs an amount condition with a tolerance/);
    assert.match(
      onlyProblem(rule({ adjustment: { reason: 'tip' }, conditions: [{ type: 'amount', sign: 'same', tolerance: { absolute: '1' } }] })).message,
      /must be one of "fee", "fx", "rounding", "write-off"/,
    );
    assert.match(
      onlyProblem(rule({ adjustment: 'fee', conditions: [{ type: 'amount', sign: 'same', tolerance: { absolute: '1' } }] })).message,
      /must be an object \{"reason"/,
    );
  });
});

describe('patternProblem', () => {
  const accepted = ['INV-(\\d+)', '(?:INV|RE)-(\\d+)', '[(]x(\\d)', '\\((\\d+)\\)', '([[:alpha:]]+)', '\\y(\\d{4,12})\\y', '(\\p{L}+)', '^(.*?)$', '(a{2,3})'];
  for (const pattern of accepted) {
    it(`accepts ${pattern}`, () => assert.equal(patternProblem(pattern), null));
  }
  const refused: [string, RegExp][] = [
    ['(a)\\1', /has a backreference \(\\1\), which cannot run in linear time; rewrite it without backreferences/],
    ['(?<x>a)\\k<x>', /has a named group/],
    ['(a)\\k<x>', /named backreference/],
    ['(?=INV)(\\d+)', /has a lookahead \(\(\?=\.\.\.\), which cannot run in linear time/],
    ['(?!INV)(\\d+)', /has a lookahead \(\(\?!/],
    ['(?<=INV)(\\d+)', /has a lookbehind \(\(\?<=/],
    ['(?<!INV)(\\d+)', /has a lookbehind \(\(\?<!/],
    ['(?>a)(b)', /atomic group/],
    ['(a++)', /possessive quantifier \(\+\+\)/],
    ['(a{2}+)', /possessive quantifier \(\}\+\)/],
    ['\\bINV(\\d+)', /reads as a backspace character, not as a word boundary; use \\y/],
    ['(?i)inv(\\d+)', /embedded option .*"normalize": \["casefold"\]/],
    ['INV\\d+', /has no capturing group; put the part to extract in parentheses/],
    ['(INV)(\\d+)', /has 2 capturing groups but must have exactly one/],
    ['INV([0-9]+', /is not a valid regular expression/],
    ['(x)\\', /ends with a lone backslash/],
    ['', /must not be empty/],
    [`(${'a'.repeat(RULE_LIMITS.patternLength)})`, /at most 500 characters/],
  ];
  for (const [pattern, message] of refused) {
    it(`refuses ${pattern.slice(0, 30)}`, () => assert.match(patternProblem(pattern) ?? 'accepted', message));
  }
});

describe('parseDuration', () => {
  const cases: [unknown, number | null][] = [
    ['P5D', 432_000_000],
    ['-P2D', -172_800_000],
    ['+P1D', 86_400_000],
    ['PT12H', 43_200_000],
    ['P1W', 604_800_000],
    ['P1DT6H30M', 109_800_000],
    ['PT0.5S', 500],
    ['P0D', 0],
    [3_600_000, 3_600_000],
    [-1, -1],
    ['P1M', null],
    ['P1Y', null],
    ['P', null],
    ['PT', null],
    ['5D', null],
    [1.5, null],
    [null, null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} is ${expected}`, () => assert.equal(parseDuration(input), expected));
  }
});

describe('helpers', () => {
  it('lists the dataset ids a raw rule names, well-formed ones only, each once', () => {
    assert.deepEqual(datasetIdsNamedBy({ origin: { datasetIds: [BANK.toUpperCase(), 'x', 3] }, target: { datasetIds: [BANK, LEDGER] } }), [BANK, LEDGER]);
    assert.deepEqual(datasetIdsNamedBy('rule'), []);
  });

  it('lists the patterns PostgreSQL must compile: those that pass the checks here, each once', () => {
    const raw = {
      conditions: [
        { type: 'equals', origin: { path: 'reference', extract: 'INV(\\d+)' }, target: { path: 'reference', extract: 'INV(\\d+)' } },
        { any: [{ type: 'contains', origin: { path: 'description', extract: '(\\d{1,999})' }, target: { path: 'x', extract: '(a)\\1' } }] },
      ],
    };
    assert.deepEqual(patternsNamedBy(raw), ['INV(\\d+)', '(\\d{1,999})']);
  });

  it('merges a patch as RFC 7396 says', () => {
    const stored = { name: 'a', origin: { datasetIds: [BANK], audience: [1] }, groupBy: { origin: ['x'], target: ['y'] }, conditions: [1, 2] };
    assert.deepEqual(mergeRuleBody(stored, { origin: { audience: [] }, groupBy: null, conditions: [3] }), {
      name: 'a',
      origin: { datasetIds: [BANK], audience: [] },
      conditions: [3],
    });
    assert.deepEqual(stored.conditions, [1, 2], 'the stored body is not changed');
  });

  it('orders keys as rules are shown, and compares JSON whatever the order', () => {
    const shuffled = { runOnIngest: false, conditions: [{ tolerance: { percent: '1', absolute: '2' }, sign: 'same', type: 'amount' }], name: 'x', unknown: 1 };
    assert.deepEqual(
      JSON.stringify(orderRuleKeys(shuffled)),
      JSON.stringify({ name: 'x', conditions: [{ type: 'amount', sign: 'same', tolerance: { absolute: '2', percent: '1' } }], runOnIngest: false, unknown: 1 }),
    );
    assert.equal(canonicalJson({ a: 1, b: [{ d: 1, c: 2 }] }), canonicalJson({ b: [{ c: 2, d: 1 }], a: 1 }));
  });
});

describe('shadowing', () => {
  const base = checkRule(rule({ conditions: [{ type: 'amount', sign: 'opposite' }] }), columns).body;
  const specific = checkRule(
    rule({
      priority: 20,
      conditions: [
        { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
        { type: 'amount', sign: 'opposite' },
      ],
    }),
    columns,
  ).body;
  const ranked = (id: string | null, body: RuleBody, createdAt: string | null = '2024-01-01T00:00:00.000000'): RankedRule => ({
    id,
    name: body.name,
    body,
    createdAt,
  });

  it('holds when the earlier rule takes everything the later one could match', () => {
    assert.equal(shadows(base, specific), true);
    assert.equal(shadows(specific, base), false, 'the later rule has a condition the earlier one lacks');
    assert.equal(shadows({ ...base, enabled: false }, specific), false);
    assert.equal(shadows({ ...base, outcome: 'suggest' }, specific), false);
    assert.equal(shadows({ ...base, cardinality: '1:N' }, specific), false);
    assert.equal(shadows(base, { ...specific, currency: 'any' }), false, 'the later rule matches across currencies, the earlier does not');
    assert.equal(shadows({ ...base, origin: { datasetIds: [BANK], audience: [{ path: 'type', search: { type: 'string', value: 'x' } }] } }, specific), false);
    assert.equal(shadows({ ...base, target: { datasetIds: [LEDGER, CARD], audience: [] } }, specific), true, 'more datasets still cover the later rule');
    assert.equal(shadows(base, { ...specific, target: { datasetIds: [CARD], audience: [] } }), false);
  });

  it('orders by priority, then creation, then id; a draft comes after existing rules of its priority', () => {
    assert.equal(runsBefore(ranked('a', { ...base, priority: 10 }), ranked('b', { ...base, priority: 20 })), true);
    assert.equal(runsBefore(ranked('b', base, '2024-01-01'), ranked('a', base, '2024-01-02')), true);
    assert.equal(runsBefore(ranked('a', base), ranked('b', base)), true);
    assert.equal(runsBefore(ranked('a', base), ranked(null, base, null)), true);
  });

  it('warns at /priority, naming the rule by id and name, in both directions', () => {
    const [forward] = shadowingWarnings(ranked(null, specific, null), [ranked('general-rule', base)]);
    assert.equal(forward!.path, '/priority');
    assert.equal(forward!.severity, 'warning');
    assert.match(forward!.message, /^rule general-rule "Invoice reference" \(priority 10\) runs before this rule/);
    const [backward] = shadowingWarnings(ranked('general-rule', base), [ranked('specific-rule', specific)]);
    assert.match(backward!.message, /^this rule runs before rule specific-rule "Invoice reference" \(priority 20\)/);
    assert.deepEqual(shadowingWarnings(ranked('same', base), [ranked('same', base)]), [], 'a rule is not compared with itself');
  });
});

describe('properties', () => {
  it('never throws on arbitrary JSON in any member, and reports problems only as pointers', async () => {
    const fc = (await import('fast-check')).default;
    const members = [
      'name',
      'enabled',
      'priority',
      'origin',
      'target',
      'cardinality',
      'conditions',
      'groupBy',
      'maxGroupSize',
      'outcome',
      'adjustment',
      'currency',
      'runOnIngest',
    ];
    const condition = fc.record(
      {
        type: fc.constantFrom('amount', 'date', 'equals', 'contains', 'similar', 'other'),
        sign: fc.constantFrom('same', 'opposite', 'absolute', 'x'),
        tolerance: fc.jsonValue({ maxDepth: 2 }),
        path: fc.constantFrom('timestamp', 'valueDate', 'reference', 'payoutId', 'x'),
        min: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constantFrom('-P2D', 'P1D', 0.5)),
        max: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constantFrom('P5D', 'PT1H')),
        origin: fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.record({ path: fc.constantFrom('reference', 'counterparty', 'amount'), extract: fc.string({ maxLength: 12 }) }, { requiredKeys: ['path'] }),
        ),
        target: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ value: fc.string({ maxLength: 5 }) })),
        any: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...members),
        fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.array(condition, { maxLength: 4 })),
        fc.array(condition, { maxLength: 3 }),
        (member, value, conditions) => {
          const inspection = inspectRule(rule({ conditions, [member]: value }), columns);
          for (const problem of inspection.problems) {
            assert.ok(problem.path === '' || problem.path.startsWith('/'), problem.path);
            assert.ok(problem.message.length > 0 && problem.message.length < 2000, problem.message);
          }
          if (inspection.result) {
            // A normalized body checks to itself.
            assert.deepEqual(checkRule(inspection.result.body, columns).body, inspection.result.body);
          }
        },
      ),
      { seed: 20_240_131, numRuns: 2000 },
    );
  });
});
