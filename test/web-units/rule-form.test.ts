import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import {
  ADJUSTMENT_CHOICES,
  AMOUNT_SIGN_CHOICES,
  CARDINALITY_CHOICES,
  NORMALIZATION_STEPS,
  OUTCOME_CHOICES,
  fieldOfPointer,
  inWords,
  newRuleForm,
  placeInWords,
  toForm,
  toRule,
  withStep,
  type ConditionForm,
  type NormalizationStep,
  type RuleForm,
  type ValueForm,
} from '../../web/src/rule-form.ts';
import { javaScriptPattern, valueAsServer } from '../../web/src/rule-pattern.ts';

const BANK = '0b3c7f6e-3f52-4d7a-9a53-6f0f5d8f0001';
const LEDGER = '0b3c7f6e-3f52-4d7a-9a53-6f0f5d8f0002';

// Forms as the builder makes them: numbers written as the service gives them back, 0 days before
// at the start of a window and after at its end (the one way the builder writes a day of 0).
const path = fc.constantFrom('reference', 'description', 'bankReference', 'counterpartyName', 'invoiceNo');
const steps = fc.subarray([...NORMALIZATION_STEPS]).chain((chosen) => fc.shuffledSubarray(chosen, { minLength: chosen.length, maxLength: chosen.length }));
const value = (side: 'origin' | 'target'): fc.Arbitrary<ValueForm> =>
  side === 'origin'
    ? fc.record({ kind: fc.constant('field' as const), path, extract: fc.constantFrom('', '(INV[0-9]+)', '([0-9]{4,10})'), normalize: steps })
    : fc.oneof(
        fc.record({ kind: fc.constant('field' as const), path, extract: fc.constantFrom('', '(INV[0-9]+)'), normalize: steps }),
        fc.record({ kind: fc.constant('text' as const), value: fc.string({ maxLength: 12 }) }),
      );
const decimal = fc.constantFrom('', '0.05', '10.00', '1', '0.5');
const days = fc.integer({ min: 0, max: 366 });
const condition: fc.Arbitrary<ConditionForm> = fc.oneof(
  fc.record({ kind: fc.constant('amount' as const), sign: fc.constantFrom(...AMOUNT_SIGN_CHOICES), toleranceAbsolute: decimal, tolerancePercent: decimal }),
  fc
    .record({ path: fc.constantFrom('timestamp', 'valueDate'), from: days, fromAfter: fc.boolean(), to: days, toBefore: fc.boolean() })
    .map(({ path, from, fromAfter, to, toBefore }): ConditionForm => ({
      kind: 'date',
      path,
      fromDays: String(from),
      fromDirection: fromAfter && from > 0 ? 'after' : 'before',
      toDays: String(to),
      toDirection: toBefore && to > 0 ? 'before' : 'after',
    })),
  fc.record({
    kind: fc.constant('text' as const),
    compare: fc.constantFrom('equals' as const, 'contains' as const),
    origin: value('origin'),
    target: value('target'),
    minimum: fc.constant(''),
  }),
  fc.record({
    kind: fc.constant('text' as const),
    compare: fc.constant('similar' as const),
    origin: value('origin'),
    target: value('target'),
    minimum: fc.constantFrom('0', '0.3', '0.85', '1'),
  }),
);
const audience = fc.array(fc.constantFrom({ path: 'amount', search: { type: 'money', value: { operator: 'gt', value: '0' } } }), { maxLength: 1 });
const form: fc.Arbitrary<RuleForm> = fc
  .record({
    name: fc.string({ maxLength: 40 }),
    enabled: fc.boolean(),
    priority: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
    originDatasetIds: fc.subarray([BANK, LEDGER]),
    targetDatasetIds: fc.subarray([BANK, LEDGER]),
    originAudience: audience,
    targetAudience: audience,
    cardinality: fc.constantFrom(...CARDINALITY_CHOICES),
    conditions: fc.array(condition, { maxLength: 5 }),
    groupOrigin: fc.constantFrom('', 'reference', 'payoutId'),
    groupTarget: fc.constantFrom('', 'reference', 'payoutId'),
    maxGroupSize: fc.integer({ min: 1, max: 10 }),
    outcome: fc.constantFrom(...OUTCOME_CHOICES),
    adjustment: fc.constantFrom(...ADJUSTMENT_CHOICES),
    currency: fc.constantFrom('same' as const, 'any' as const),
    runOnIngest: fc.boolean(),
  })
  // A classification rule has no second side: its datasets and filters are not kept.
  .map((drawn) => (drawn.outcome === 'informative' || drawn.outcome === 'out of scope' ? { ...drawn, targetDatasetIds: [], targetAudience: [] } : drawn));

describe('rule builder: the form and the rule', () => {
  it('gives back every form it can express: toForm(toRule(form)) equals form', () => {
    fc.assert(
      fc.property(form, (drawn) => {
        const read = toForm(JSON.parse(JSON.stringify(toRule(drawn))));
        assert.ok('form' in read, 'reason' in read ? read.reason : '');
        assert.deepEqual(read.form, JSON.parse(JSON.stringify(drawn)));
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });

  it('writes the rule the service reads', () => {
    const built: RuleForm = {
      ...newRuleForm(),
      name: 'Bank to books',
      originDatasetIds: [BANK],
      targetDatasetIds: [LEDGER],
      conditions: [
        { kind: 'amount', sign: 'same', toleranceAbsolute: '', tolerancePercent: '' },
        { kind: 'date', path: 'timestamp', fromDays: '3', fromDirection: 'before', toDays: '0', toDirection: 'after' },
        {
          kind: 'text',
          compare: 'contains',
          origin: { kind: 'field', path: 'reference', extract: '', normalize: ['casefold'] },
          target: { kind: 'field', path: 'description', extract: '', normalize: ['casefold'] },
          minimum: '',
        },
      ],
    };
    assert.deepEqual(toRule(built), {
      name: 'Bank to books',
      enabled: true,
      origin: { datasetIds: [BANK], audience: [] },
      target: { datasetIds: [LEDGER], audience: [] },
      cardinality: '1:1',
      conditions: [
        { type: 'amount', sign: 'same' },
        { type: 'date', path: 'timestamp', min: '-P3D', max: 'P0D' },
        { type: 'contains', origin: { path: 'reference', normalize: ['casefold'] }, target: { path: 'description', normalize: ['casefold'] } },
      ],
      groupBy: null,
      maxGroupSize: 5,
      outcome: 'match',
      adjustment: null,
      currency: 'same',
      runOnIngest: false,
    });
  });

  it('reads the documented rules, defaults filled in, and a window in weeks or milliseconds as days', () => {
    const read = toForm({
      name: 'Invoice reference in bank text',
      origin: { datasetIds: [BANK] },
      target: { datasetIds: [LEDGER] },
      conditions: [
        { type: 'amount', sign: 'same', tolerance: { absolute: '10.00' } },
        {
          type: 'equals',
          origin: { path: 'description', extract: '([Ii][Nn][Vv][ .-]?[0-9]{5})', normalize: ['alnum', 'casefold'] },
          target: { path: 'reference', normalize: ['alnum', 'casefold'] },
        },
        { type: 'date', path: 'timestamp', min: '-P2W', max: 432_000_000 },
      ],
      outcome: 'suggest',
    });
    assert.ok('form' in read, 'reason' in read ? read.reason : '');
    assert.equal(read.form.outcome, 'suggest');
    assert.deepEqual(read.form.conditions[1], {
      kind: 'text',
      compare: 'equals',
      origin: { kind: 'field', path: 'description', extract: '([Ii][Nn][Vv][ .-]?[0-9]{5})', normalize: ['alnum', 'casefold'] },
      target: { kind: 'field', path: 'reference', extract: '', normalize: ['alnum', 'casefold'] },
      minimum: '',
    });
    assert.deepEqual(read.form.conditions[2], { kind: 'date', path: 'timestamp', fromDays: '14', fromDirection: 'before', toDays: '5', toDirection: 'after' });
  });

  it('says in a sentence why it cannot show a rule', () => {
    const reasonOf = (rule: unknown) => {
      const read = toForm(rule);
      assert.ok('reason' in read, 'the form should refuse it');
      return read.reason;
    };
    assert.match(reasonOf({ name: 'x', conditions: [{ any: [] }] }), /alternatives/);
    assert.match(reasonOf({ name: 'x', conditions: [{ type: 'date', min: '-PT12H', max: 'P1D' }] }), /whole days/);
    assert.match(reasonOf({ name: 'x', groupBy: { origin: ['a', 'b'], target: ['c', 'd'] } }), /more than one field/);
    assert.match(reasonOf({ name: 'x', colour: 'red' }), /setting the form does not know/);
    assert.match(reasonOf([1, 2]), /not a rule/);
    for (const reason of [reasonOf({ conditions: [{ type: 'equals', origin: { value: 'x' }, target: { path: 'type' } }] })]) {
      assert.doesNotMatch(reason, /\/|\{/, 'no JSON pointer or JSON in the sentence');
    }
  });

  it('places the service’s problems at the form’s fields, in words', () => {
    const built: RuleForm = { ...newRuleForm(), conditions: [...newRuleForm().conditions, { ...(newRuleForm().conditions[0] as ConditionForm) }] };
    built.conditions.push({
      kind: 'text',
      compare: 'similar',
      origin: { kind: 'field', path: 'description', extract: '', normalize: [] },
      target: { kind: 'text', value: 'x' },
      minimum: '2',
    });
    assert.equal(fieldOfPointer('/name', built), 'name');
    assert.equal(fieldOfPointer('/origin/datasetIds/0', built), 'origin');
    assert.equal(fieldOfPointer('/conditions/1/min', built), 'conditions.1.from');
    assert.equal(fieldOfPointer('/conditions/1/max', built), 'conditions.1.to');
    assert.equal(fieldOfPointer('/conditions/0/tolerance/percent', built), 'conditions.0.tolerancePercent');
    assert.equal(fieldOfPointer('/conditions/3/min', built), 'conditions.3.minimum');
    assert.equal(fieldOfPointer('/conditions/3/origin/extract', built), 'conditions.3.origin.extract');
    assert.equal(fieldOfPointer('/conditions/3/target/value', built), 'conditions.3.target.value');
    assert.equal(fieldOfPointer('/groupBy/target/0', built), 'groupTarget');
    assert.equal(fieldOfPointer('', built), 'rule');
    assert.equal(placeInWords('/conditions/0/sign'), 'Condition 1, sign');
    assert.equal(placeInWords('/origin/datasetIds/1'), 'First side, datasets, number 2');
    assert.equal(placeInWords(''), '');
    assert.equal(
      inWords(`repeats dataset ${BANK} (already at /origin/datasetIds/0); list each dataset once`, new Map([[BANK, 'Statement']])),
      'Repeats dataset “Statement”; list each dataset once.',
    );
  });

  it('ticks a tidying step into its place', () => {
    assert.deepEqual(withStep(['casefold'], 'alnum', true), ['alnum', 'casefold']);
    assert.deepEqual(withStep(['alnum', 'casefold'], 'trim-zeros', true), ['alnum', 'casefold', 'trim-zeros']);
    assert.deepEqual(withStep(['casefold', 'alnum'], 'casefold', false), ['alnum']);
  });
});

describe('rule builder: a pattern as the service applies it', () => {
  it('extracts the group at the first match, then tidies, as the documented examples show', () => {
    const invoice = '([Ii][Nn][Vv][ .-]?[0-9]{5})';
    assert.equal(valueAsServer('KESTREL AVIATION INV10410 OCT', invoice, ['alnum', 'casefold']), 'inv10410');
    assert.equal(valueAsServer('Invoice INV 10413 Northgate Pharmacy', invoice, ['alnum', 'casefold']), 'inv10413');
    assert.equal(valueAsServer('Thornbury Press Inv.10419', invoice, ['alnum', 'casefold']), 'inv10419');
    assert.equal(valueAsServer('Westcott Dental monthly service', invoice, ['alnum', 'casefold']), null);
    assert.equal(valueAsServer('Rechnung 0004711', '([0-9]{4,10})', ['trim-zeros']), '4711');
    assert.equal(valueAsServer('INV-4711', '', ['digits', 'trim-zeros']), '4711');
    assert.equal(valueAsServer('', '', []), null, 'an empty value is no value');
  });

  it('reads PostgreSQL’s word boundaries and classes', () => {
    assert.equal(valueAsServer('paid ref 123 thanks', '\\y([0-9]+)\\y', []), '123');
    assert.equal(valueAsServer('Order ABC-77', '([[:alpha:]]+-[[:digit:]]+)', []), 'ABC-77');
    assert.equal(javaScriptPattern('(unclosed'), null);
  });
});

describe('rule builder: the tester agrees with PostgreSQL', () => {
  it('gives what substring() and the tidying steps of the rule SQL give, on patterns and texts a person writes', async () => {
    const database = new PGlite();
    const sqlOf: Record<NormalizationStep, (expression: string) => string> = {
      casefold: (expression) => `lower(${expression})`,
      digits: (expression) => `regexp_replace(${expression}, '[^0-9]', '', 'g')`,
      alnum: (expression) => `regexp_replace(${expression}, '[^[:alnum:]]', '', 'g')`,
      'trim-zeros': (expression) => `ltrim(${expression}, '0')`,
    };
    const texts = [
      'KESTREL AVIATION INV10410 OCT',
      'Invoice INV 10413 Northgate Pharmacy',
      'Thornbury Press Inv.10419',
      'Rechnung 0004711 vom 3.1.',
      'Zahlung Müller GmbH RE-2026/0042',
      'paid ref 123 thanks',
      'two lines\nINV-555 on the second',
      '',
    ];
    const cases: [string, NormalizationStep[]][] = [
      ['([Ii][Nn][Vv][ .-]?[0-9]{5})', ['alnum', 'casefold']],
      ['([0-9]{4,10})', ['trim-zeros']],
      ['\\y([0-9]+)\\y', []],
      ['RE-([0-9]+/[0-9]+)', ['digits', 'trim-zeros']],
      ['([[:alpha:]]+) GmbH', ['casefold']],
      ['(INV-\\d+)', []],
      ['.*(INV-[0-9]+)', ['alnum']],
      ['(?:ref|REF) ([0-9]+)', []],
      ['', ['alnum', 'casefold']],
      ['', ['digits', 'trim-zeros']],
    ];
    try {
      for (const [pattern, steps] of cases) {
        for (const text of texts) {
          let expression = pattern === '' ? '$1::text' : 'substring($1::text from $2::text)';
          for (const step of steps) expression = sqlOf[step](expression);
          const parameters = pattern === '' ? [text] : [text, pattern];
          const { rows } = await database.query<{ value: string | null }>(`select nullif(${expression}, '') as value`, parameters);
          assert.equal(valueAsServer(text, pattern, steps), rows[0]!.value, `${JSON.stringify(pattern)} ${steps.join(',')} on ${JSON.stringify(text)}`);
        }
      }
    } finally {
      await database.close();
    }
  });
});
