import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/errors.ts';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { createDataset } from '../../support/recon-fixtures.ts';

type Problem = { path: string; message: string; severity: 'error' | 'warning' };

for (const kind of storeKinds()) {
  describe(`rules (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let bank: string;
    let ledger: string;
    let card: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      ({ datasetId: bank } = await createDataset(server, organization, {
        name: 'Bank',
        columns: [
          { name: 'counterparty', type: 'string' },
          { name: 'valueDate', type: 'date' },
          { name: 'flagged', type: 'boolean' },
          { name: 'payoutId', type: 'string' },
        ],
      }));
      ({ datasetId: ledger } = await createDataset(server, organization, {
        name: 'Ledger',
        columns: [
          { name: 'invoiceNumber', type: 'number' },
          { name: 'dueDate', type: 'date' },
          { name: 'payoutId', type: 'string' },
        ],
      }));
      ({ datasetId: card } = await createDataset(server, organization, { name: 'Card', columns: [{ name: 'valueDate', type: 'string' }] }));
    });
    after(async () => server.close());

    const base = () => `/v1/api/${organization.orgId}`;
    const call = (method: string, path: string, body?: unknown, token = organization.token, headers: Record<string, string> = {}) =>
      api(server, token, method, `${base()}${path}`, body, headers);
    let counter = 0;
    /** A valid 1:1 rule from the bank to the ledger; `overrides` replace its members. */
    const draft = (overrides: Record<string, unknown> = {}) => ({
      name: `Invoice reference ${++counter}`,
      origin: { datasetIds: [bank], audience: [{ path: 'amount', search: { type: 'money', value: { start: '0.01' } } }] },
      target: { datasetIds: [ledger] },
      conditions: [
        { type: 'amount', sign: 'opposite', tolerance: { absolute: '0.50' } },
        { type: 'date', path: 'timestamp', min: '-P2D', max: 'P5D' },
        { type: 'equals', origin: { path: 'reference', extract: 'INV-?(\\d+)', normalize: ['trim-zeros'] }, target: { path: 'invoiceNumber' } },
      ],
      ...overrides,
    });
    const validate = async (body: unknown, query = '') => {
      const response = await call('POST', `/rules/validate${query}`, body);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body as { valid: boolean; problems: Problem[] };
    };
    /** The problem reported at `path` (it must exist). */
    const problemAt = (report: { problems: Problem[] }, path: string): Problem => {
      const problem = report.problems.find((candidate) => candidate.path === path);
      assert.ok(problem, `no problem at ${path}: ${JSON.stringify(report.problems, null, 1)}`);
      return problem;
    };
    async function create(body: unknown, headers: Record<string, string> = {}) {
      const response = await call('POST', '/rules', body, organization.token, headers);
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response;
    }
    async function deleteAllRules() {
      for (const rule of (await call('GET', '/rules')).body) assert.equal((await call('DELETE', `/rules/${rule.id}`)).status, 204);
    }

    it('creates a rule with every default filled in, and reads it back the same', async () => {
      await deleteAllRules();
      const body = draft({ name: '  Invoice reference in bank text  ' });
      const created = await create(body);
      const rule = created.body;
      assert.deepEqual(Object.keys(rule), [
        'id',
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
        'version',
        'createdAt',
        'createdBy',
        'updatedAt',
        'updatedBy',
      ]);
      assert.equal(rule.name, 'Invoice reference in bank text');
      assert.equal(rule.enabled, true);
      assert.equal(rule.cardinality, '1:1');
      assert.equal(rule.maxGroupSize, 5);
      assert.equal(rule.outcome, 'match');
      assert.equal(rule.currency, 'same');
      assert.equal(rule.runOnIngest, false);
      assert.equal(rule.groupBy, null);
      assert.equal(rule.adjustment, null);
      assert.equal(rule.version, 1);
      assert.equal(rule.createdBy, `client:${organization.clientId}`);
      assert.deepEqual(rule.origin, body.origin);
      assert.deepEqual(rule.target, { datasetIds: [ledger], audience: [] });
      assert.deepEqual(rule.conditions, body.conditions);
      assert.equal(rule.warnings, undefined);
      const read = await call('GET', `/rules/${rule.id}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, rule);

      // The default priority is 10 after the last rule's.
      const second = await create(draft({ conditions: [{ type: 'amount', sign: 'same' }] }));
      assert.equal(rule.priority, 10);
      assert.equal(second.body.priority, 20);
      const listed = await call('GET', '/rules');
      assert.deepEqual(
        listed.body.map((entry: { id: string }) => entry.id),
        [rule.id, second.body.id],
      );
    });

    it('normalizes what it can: dataset ids in lower case, decimals as strings, integers given as digit strings', async () => {
      const created = await create(
        draft({
          priority: '35',
          maxGroupSize: '3',
          cardinality: '1:N',
          origin: { datasetIds: [bank.toUpperCase()] },
          conditions: [{ type: 'amount', sign: 'absolute', tolerance: { percent: 0.5 } }],
          outcome: 'suggest',
          currency: 'any',
          runOnIngest: true,
          enabled: false,
        }),
      );
      const rule = created.body;
      assert.equal(rule.priority, 35);
      assert.equal(rule.maxGroupSize, 3);
      assert.deepEqual(rule.origin, { datasetIds: [bank], audience: [] });
      assert.deepEqual(rule.conditions, [{ type: 'amount', sign: 'absolute', tolerance: { percent: '0.5' } }]);
      assert.equal(rule.outcome, 'suggest');
      assert.equal(rule.enabled, false);
    });

    it('creates classification and grouped rules', async () => {
      const classification = await create({
        name: 'Card fees are out of scope',
        origin: { datasetIds: [bank], audience: [{ path: 'type', search: { type: 'string', value: 'FEE', exact: true } }] },
        conditions: [{ type: 'contains', origin: { path: 'description', normalize: ['casefold'] }, target: { value: 'card fee' } }],
        outcome: { status: 'out of scope' },
      });
      assert.equal(classification.body.target, null);
      assert.deepEqual(classification.body.outcome, { status: 'out of scope' });

      const grouped = await create(
        draft({
          cardinality: 'N:1',
          groupBy: { origin: ['payoutId'], target: ['PayoutId'] },
          maxGroupSize: 10,
          adjustment: { reason: 'fee' },
          conditions: [
            { type: 'amount', sign: 'opposite', tolerance: { absolute: '2.00', percent: '1' } },
            {
              any: [
                { type: 'similar', origin: { path: 'counterparty' }, target: { path: 'description' }, min: 0.6 },
                { type: 'equals', origin: { path: 'flagged' }, target: { value: 'true' } },
              ],
            },
          ],
        }),
      );
      assert.deepEqual(grouped.body.groupBy, { origin: ['payoutId'], target: ['PayoutId'] });
      assert.deepEqual(grouped.body.adjustment, { reason: 'fee' });
    });

    it('refuses an invalid rule with 400 listing every problem, each at its pointer', async () => {
      const response = await call(
        'POST',
        '/rules',
        draft({
          nmae: 'typo',
          conditions: [{ type: 'equals', origin: { path: 'reference', extract: '(INV)-\\1' }, target: { path: 'invoiceNumbr' } }],
        }),
      );
      assert.equal(response.status, 400, JSON.stringify(response.body));
      const paths = response.body.error.details.map((detail: { path: string }) => detail.path);
      assert.deepEqual(paths, ['/nmae', '/conditions/0/origin/extract', '/conditions/0/target/path']);
      assert.match(response.body.error.message, /^\/nmae: unknown property "nmae"; did you mean "name"\?.*\(and 2 more problems/);
      assert.match(response.body.error.details[1].message, /backreference \(\\1\), which cannot run in linear time; rewrite it without backreferences/);
      assert.match(
        response.body.error.details[2].message,
        /unknown path "invoiceNumbr" on the target side; did you mean "invoiceNumber"\? Valid paths: .*invoiceNumber \(number\)/,
      );
      const listed = await call('GET', '/rules');
      assert.ok(!listed.body.some((rule: { name: string }) => rule.name === 'typo'));
    });

    it('reports a pattern that JavaScript accepts and PostgreSQL refuses, on create and on validate', async () => {
      const body = draft({ conditions: [{ type: 'equals', origin: { path: 'reference', extract: 'INV-(\\d{1,1000})' }, target: { path: 'invoiceNumber' } }] });
      const response = await call('POST', '/rules', body);
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.deepEqual(
        response.body.error.details.map((detail: { path: string }) => detail.path),
        ['/conditions/0/origin/extract'],
      );
      assert.match(
        response.body.error.message,
        /refused by PostgreSQL, which runs it \(invalid repetition count\(s\)\); a repetition count such as \{1,300\} may be at most 255/,
      );
      const report = await validate(body);
      assert.equal(report.valid, false);
      assert.match(problemAt(report, '/conditions/0/origin/extract').message, /PostgreSQL/);
      const escape = await validate(
        draft({ conditions: [{ type: 'equals', origin: { path: 'description', extract: '(\\p{L}+)' }, target: { path: 'payoutId' } }] }),
      );
      assert.match(problemAt(escape, '/conditions/0/origin/extract').message, /PostgreSQL does not know this escape/);
    });

    it('validates a draft: 200 with every problem, never storing anything', async () => {
      const before = (await call('GET', '/rules')).body.length;
      const report = await validate({
        name: '',
        priority: -1,
        bogus: true,
        origin: {
          datasetIds: [bank, '00000000-0000-4000-8000-000000000000'],
          audience: [
            { path: 'counterparty', search: { type: 'number', value: 1 } },
            { path: 'amont', search: { type: 'money', value: 1 } },
          ],
        },
        target: { datasetIds: [ledger, card], audience: [{ path: 'payoutId', search: { type: 'string', value: 'P1' } }] },
        cardinality: '1:1',
        conditions: [
          { type: 'amount', sign: 'inverse', tolerance: { absolute: '-1' } },
          { type: 'date', path: 'dueDate', min: 'P5D', max: 'P1D' },
          { type: 'date', path: 'counterparty', min: 'P1Y', max: 'P1D' },
          { type: 'similar', origin: { path: 'description' }, target: { path: 'reference' }, min: 1.5 },
          { type: 'equals', origin: { path: 'reference', extract: '(?<=INV)(\\d+)' }, target: { path: 'amount' } },
          { type: 'contains', origin: { path: 'reference', extract: 'INV(\\d+)-(\\d+)' }, target: { path: 'reference', extract: '\\bINV(\\d+)' } },
          { type: 'equals', origin: { path: 'reference', extract: 'INV([0-9]+' }, target: { value: 'x' } },
          { any: [{ type: 'equals', origin: { path: 'reference', normalize: ['upper'] }, target: { path: 'reference' } }] },
        ],
        groupBy: { origin: ['payoutId'], target: ['payoutId', 'reference'] },
        maxGroupSize: 11,
        adjustment: { reason: 'gift' },
      });
      assert.equal(report.valid, false);
      assert.ok(report.problems.every((problem) => problem.severity === 'error'));
      const expectations: [string, RegExp][] = [
        ['/bogus', /unknown property "bogus"; allowed here: name, enabled/],
        ['/name', /must be 1 to 200 characters/],
        ['/priority', /must be an integer from 0 to 1000000/],
        ['/origin/datasetIds/1', /no dataset with this id in this organization/],
        ['/origin/audience/0/search/type', /a number filter does not fit path "counterparty", which is a string field; use string; valid paths: /],
        ['/origin/audience/1/path', /unknown path "amont"; did you mean "amount"\? Valid paths: id \(string\).*counterparty \(string\)/],
        ['/target/audience/0/path', new RegExp(`unknown path "payoutId" in dataset ${card}; valid paths there: .*valueDate \\(string\\)`)],
        ['/conditions/0/sign', /"same" \(both sides carry the same sign\), "opposite"/],
        ['/conditions/0/tolerance/absolute', /must be a non-negative decimal such as "0.50"/],
        ['/conditions/1/path', new RegExp(`unknown path "dueDate" on the origin side; valid paths: .*valueDate \\(date\\)`)],
        ['/conditions/1/min', /is later than "max" .*swap them/],
        ['/conditions/2/path', /"counterparty" is a string field on the origin side; a date condition needs a date field/],
        ['/conditions/2/min', /counts years or months, which have no fixed length; write days instead/],
        ['/conditions/3/min', /must be a number from 0 to 1/],
        ['/conditions/4/origin/extract', /has a lookbehind .*cannot run in linear time/],
        ['/conditions/4/target/path', /"amount" is a money field; compare amounts with an amount condition/],
        ['/conditions/5/origin/extract', /has 2 capturing groups but must have exactly one/],
        ['/conditions/5/target/extract', /PostgreSQL .* reads as a backspace character, not as a word boundary; use \\y/],
        ['/conditions/6/origin/extract', /is not a valid regular expression/],
        ['/conditions/7/any/0/origin/normalize/0', /must be one of "casefold", "digits", "alnum", "trim-zeros"/],
        ['/groupBy', /groups need a cardinality of "1:N", "N:1" or "N:M"/],
        ['/maxGroupSize', /must be an integer from 1 to 10/],
        ['/adjustment/reason', /must be one of "fee", "fx", "rounding", "write-off"/],
      ];
      for (const [path, message] of expectations) {
        const messages = report.problems.filter((problem) => problem.path === path).map((problem) => problem.message);
        assert.ok(
          messages.some((text) => message.test(text)),
          `${path}: ${message} not in ${JSON.stringify(messages)}`,
        );
      }
      // A path must exist in every dataset of its side: "dueDate" is the ledger's, not the card's.
      assert.match(problemAt(report, '/conditions/1/path').message, /dueDate/);
      assert.equal((await call('GET', '/rules')).body.length, before);
    });

    it('checks groupBy paths, side lengths and the outcome rules', async () => {
      const grouped = await validate(draft({ cardinality: 'N:M', groupBy: { origin: ['payoutId', 'counterpart'], target: ['payoutId'] } }));
      assert.match(
        problemAt(grouped, '/groupBy/origin/1').message,
        /unknown path "counterpart" on the origin side; did you mean "counterparty"\? Valid paths: .*counterparty/,
      );
      assert.match(problemAt(grouped, '/groupBy/target').message, /has 1 path but "origin" has 2; keys are compared pairwise/);

      const classification = await validate(
        draft({
          outcome: { status: 'informative' },
          cardinality: '1:N',
          adjustment: { reason: 'fee' },
          conditions: [
            { type: 'amount', sign: 'same' },
            { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
          ],
        }),
      );
      assert.match(problemAt(classification, '/target').message, /a classification rule .* has no target; remove "target"/);
      assert.match(problemAt(classification, '/cardinality').message, /must be "1:1"/);
      assert.match(problemAt(classification, '/conditions/0/type').message, /narrow the origin's transactions with "origin.audience" instead/);
      assert.match(problemAt(classification, '/conditions/1/target/path').message, /compare the origin with a constant/);
      assert.match(problemAt(classification, '/adjustment').message, /makes no match/);

      const noTarget = await validate(draft({ outcome: 'suggest', target: null }));
      assert.match(problemAt(noTarget, '/target').message, /is required for a rule that matches/);

      const status = await validate(draft({ outcome: { status: 'matched' } }));
      assert.match(problemAt(status, '/outcome/status').message, /must be one of "informative", "out of scope"/);

      const adjustment = await validate(draft({ adjustment: { reason: 'fee' }, conditions: [{ type: 'amount', sign: 'opposite' }] }));
      assert.match(problemAt(adjustment, '/adjustment').message, /needs an amount condition with a tolerance/);

      const constants = await validate(draft({ conditions: [{ type: 'equals', origin: { value: 'a' }, target: { value: 'a' } }] }));
      assert.match(problemAt(constants, '/conditions/0').message, /compares two constants/);
    });

    it('answers 400 only for a body that is not an object, and 404 for an unknown ruleId', async () => {
      const array = await call('POST', '/rules/validate', [draft()]);
      assert.equal(array.status, 400, JSON.stringify(array.body));
      const unknown = await call('POST', '/rules/validate?ruleId=00000000-0000-4000-8000-000000000000', {});
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      const empty = await validate({});
      assert.equal(empty.valid, false);
      assert.deepEqual(
        empty.problems.map((problem) => problem.path),
        ['/name', '/origin', '/target'],
      );
    });

    it('PATCH merges into the stored rule, makes a new version per change, and keeps every version', async () => {
      const created = (await create(draft({ groupBy: { origin: ['payoutId'], target: ['payoutId'] }, cardinality: '1:N' }))).body;
      const renamed = await call('PATCH', `/rules/${created.id}`, { name: 'Renamed', origin: { audience: [] } });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.version, 2);
      assert.equal(renamed.body.name, 'Renamed');
      // Objects merge member by member: datasetIds stay, audience is replaced.
      assert.deepEqual(renamed.body.origin, { datasetIds: [bank], audience: [] });
      assert.deepEqual(renamed.body.conditions, created.conditions);
      assert.equal(renamed.body.createdAt, created.createdAt);
      assert.ok(renamed.body.updatedAt >= created.updatedAt);

      // null removes a member: groupBy goes, and cardinality goes back to its default.
      const ungrouped = await call('PATCH', `/rules/${created.id}`, { groupBy: null, cardinality: null });
      assert.equal(ungrouped.status, 200, JSON.stringify(ungrouped.body));
      assert.equal(ungrouped.body.groupBy, null);
      assert.equal(ungrouped.body.cardinality, '1:1');
      assert.equal(ungrouped.body.version, 3);

      // Arrays are replaced whole.
      const conditions = await call('PATCH', `/rules/${created.id}`, { conditions: [{ type: 'amount', sign: 'same' }] });
      assert.deepEqual(conditions.body.conditions, [{ type: 'amount', sign: 'same' }]);
      assert.equal(conditions.body.version, 4);

      // A patch that changes nothing makes no version.
      const same = await call('PATCH', `/rules/${created.id}`, { name: 'Renamed', enabled: true });
      assert.equal(same.status, 200);
      assert.equal(same.body.version, 4);

      // An invalid patch changes nothing.
      const invalid = await call('PATCH', `/rules/${created.id}`, { conditions: [{ type: 'date', path: 'counterparty', min: '-P1D', max: 'P1D' }] });
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.error.details[0].path, '/conditions/0/path');
      assert.equal((await call('GET', `/rules/${created.id}`)).body.version, 4);

      // The version precondition.
      const stale = await call('PATCH', `/rules/${created.id}`, { version: 3, name: 'Stale' });
      assert.equal(stale.status, 409, JSON.stringify(stale.body));
      assert.match(stale.body.error.message, /is at version 4, not 3: someone changed it since you read it/);
      const current = await call('PATCH', `/rules/${created.id}`, { version: 4, name: 'Current' });
      assert.equal(current.status, 200);
      assert.equal(current.body.version, 5);
      const readOnly = await call('PATCH', `/rules/${created.id}`, { id: created.id, createdAt: created.createdAt });
      assert.equal(readOnly.status, 400);
      assert.match(readOnly.body.error.details[0].message, /is set by the service and cannot be written/);

      const versions = await call('GET', `/rules/${created.id}/versions`);
      assert.equal(versions.status, 200, JSON.stringify(versions.body));
      assert.equal(versions.body.currentVersion, 5);
      assert.deepEqual(
        versions.body.versions.map((entry: { version: number }) => entry.version),
        [5, 4, 3, 2, 1],
      );
      assert.equal(versions.body.versions[4].rule.name, created.name);
      assert.deepEqual(versions.body.versions[4].rule.groupBy, { origin: ['payoutId'], target: ['payoutId'] });
      assert.equal(versions.body.versions[0].rule.name, 'Current');
      const paged = await call('GET', `/rules/${created.id}/versions?limit=2&beforeVersion=4`);
      assert.deepEqual(
        paged.body.versions.map((entry: { version: number }) => entry.version),
        [3, 2],
      );
      // A version beyond any there can be is refused by name, not sent to the database to overflow.
      const beyond = await call('GET', `/rules/${created.id}/versions?beforeVersion=3000000000`);
      assert.equal(beyond.status, 400, JSON.stringify(beyond.body));
      assert.equal(beyond.body.error.details[0].path, '/querystring/beforeVersion');
      assert.equal(paged.body.hasMore, true);
    });

    it('deletes a rule: gone from the list and from GET, its versions kept', async () => {
      const created = (await create(draft())).body;
      const deleted = await call('DELETE', `/rules/${created.id}`);
      assert.equal(deleted.status, 204);
      assert.equal((await call('GET', `/rules/${created.id}`)).status, 404);
      assert.equal((await call('PATCH', `/rules/${created.id}`, { name: 'x' })).status, 404);
      assert.equal((await call('DELETE', `/rules/${created.id}`)).status, 404);
      assert.ok(!(await call('GET', '/rules')).body.some((rule: { id: string }) => rule.id === created.id));
      const versions = await call('GET', `/rules/${created.id}/versions`);
      assert.equal(versions.status, 200);
      assert.ok(versions.body.deletedAt);
      assert.equal(versions.body.versions.length, 1);
      const events = await call('GET', '/audit-events?limit=1000');
      const actions = events.body.events.filter((event: { after: { id?: string } | null; before: { id?: string } | null }) =>
        [event.after?.id, event.before?.id].includes(created.id),
      );
      assert.deepEqual(
        actions.map((event: { action: string }) => event.action),
        ['rule.created', 'rule.deleted'],
      );
    });

    it('reorders rules: 10, 20, 30 in the order given, others keep theirs, no new version', async () => {
      await deleteAllRules();
      const first = (await create(draft({ priority: 100 }))).body;
      const second = (await create(draft({ priority: 200 }))).body;
      const third = (await create(draft({ priority: 15 }))).body;
      const response = await call('POST', '/rules/reorder', { ruleIds: [second.id, first.id] });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.deepEqual(
        response.body.map((rule: { id: string; priority: number; version: number }) => [rule.id, rule.priority, rule.version]),
        [
          [second.id, 10, 1],
          [third.id, 15, 1],
          [first.id, 20, 1],
        ],
      );
      assert.equal((await call('GET', `/rules/${second.id}`)).body.priority, 10);
      const events = (await call('GET', '/audit-events?limit=1000')).body.events;
      const reordered = events.filter((event: { action: string }) => event.action === 'rules.reordered').at(-1);
      assert.deepEqual(reordered.before, [
        { id: second.id, priority: 200 },
        { id: first.id, priority: 100 },
      ]);
      assert.deepEqual(reordered.after, [
        { id: second.id, priority: 10 },
        { id: first.id, priority: 20 },
      ]);
      assert.equal(reordered.transactionId, null);

      const unknown = await call('POST', '/rules/reorder', { ruleIds: [first.id, '00000000-0000-4000-8000-000000000000'] });
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      assert.equal(unknown.body.error.details[0].path, '/ruleIds/1');
      assert.match(unknown.body.error.message, /00000000-0000-4000-8000-000000000000/);
      const repeated = await call('POST', '/rules/reorder', { ruleIds: [first.id, first.id] });
      assert.equal(repeated.status, 400);
      assert.match(repeated.body.error.message, /\/ruleIds\/1: repeats rule/);
      assert.equal((await call('GET', `/rules/${first.id}`)).body.priority, 20, 'a refused reorder changes nothing');
    });

    it('warns when a rule of higher priority always shadows the draft, and the other way round', async () => {
      await deleteAllRules();
      const general = (
        await create(draft({ name: 'Amount only', priority: 10, origin: { datasetIds: [bank] }, conditions: [{ type: 'amount', sign: 'opposite' }] }))
      ).body;
      const specific = draft({
        name: 'Amount and reference',
        priority: 20,
        origin: { datasetIds: [bank] },
        conditions: [
          { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
          { type: 'amount', sign: 'opposite' },
        ],
      });
      const report = await validate(specific);
      assert.equal(report.valid, true, JSON.stringify(report.problems));
      const warning = problemAt(report, '/priority');
      assert.equal(warning.severity, 'warning');
      assert.ok(warning.message.includes(general.id) && warning.message.includes('"Amount only"'), warning.message);
      assert.match(warning.message, /give it a priority below 10/);

      // Not shadowed: another cardinality, a narrower audience on the higher rule, or a higher priority.
      assert.equal((await validate({ ...specific, cardinality: '1:N' })).problems.length, 0);
      assert.equal(
        (await validate({ ...specific, priority: 5 })).problems.length,
        0,
        'the draft then shadows nothing either: the general rule has fewer conditions',
      );
      const created = await create(specific);
      assert.equal(created.body.warnings.length, 1);
      assert.equal(created.body.warnings[0].path, '/priority');

      // Moving the general rule below the specific one is fine; moving it above again warns from its side.
      const moved = await call('PATCH', `/rules/${general.id}`, { priority: 30 });
      assert.equal(moved.body.warnings, undefined, JSON.stringify(moved.body.warnings));
      const back = await validate({ priority: 10 }, `?ruleId=${general.id}`);
      assert.equal(back.valid, true);
      assert.match(problemAt(back, '/priority').message, new RegExp(`this rule runs before rule ${created.body.id} "Amount and reference"`));
    });

    it('replays a POST /rules with the same Idempotency-Key and creates one rule', async () => {
      const body = draft({ name: 'Idempotent' });
      const headers = { 'idempotency-key': `rule-${kind}-${Date.now()}` };
      const first = await create(body, headers);
      const second = await call('POST', '/rules', body, organization.token, headers);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.equal(second.body.id, first.body.id);
      const named = (await call('GET', '/rules')).body.filter((rule: { name: string }) => rule.name === 'Idempotent');
      assert.equal(named.length, 1);
      const reused = await call('POST', '/rules', { ...body, name: 'Other' }, organization.token, headers);
      assert.equal(reused.status, 422);
    });

    it('lets a View-only client read and validate, and refuses its writes with 403', async () => {
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      const rule = (await create(draft())).body;
      assert.equal((await call('GET', '/rules', undefined, viewer.token)).status, 200);
      assert.equal((await call('GET', `/rules/${rule.id}`, undefined, viewer.token)).status, 200);
      assert.equal((await call('GET', `/rules/${rule.id}/versions`, undefined, viewer.token)).status, 200);
      assert.equal((await call('POST', '/rules/validate', draft(), viewer.token)).status, 200);
      for (const [method, path, body] of [
        ['POST', '/rules', draft()],
        ['PATCH', `/rules/${rule.id}`, { name: 'x' }],
        ['DELETE', `/rules/${rule.id}`, undefined],
        ['POST', '/rules/reorder', { ruleIds: [rule.id] }],
      ] as const) {
        const response = await call(method, path, body, viewer.token);
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.match(response.headers.get('www-authenticate') ?? '', /insufficient_scope/);
      }
    });

    it("answers 404 for another organization's rule", async () => {
      const rule = (await create(draft())).body;
      const other = await createTestOrganization(server);
      const otherBase = `/v1/api/${other.orgId}`;
      for (const [method, path, body] of [
        ['GET', `/rules/${rule.id}`, undefined],
        ['GET', `/rules/${rule.id}/versions`, undefined],
        ['PATCH', `/rules/${rule.id}`, { name: 'stolen' }],
        ['DELETE', `/rules/${rule.id}`, undefined],
        ['POST', '/rules/reorder', { ruleIds: [rule.id] }],
        ['POST', `/rules/validate?ruleId=${rule.id}`, {}],
      ] as const) {
        const response = await api(server, other.token, method, `${otherBase}${path}`, body);
        assert.equal(response.status, 404, `${method} ${path}: ${JSON.stringify(response.body)}`);
      }
      // Its datasets are not the other organization's either.
      const foreign = await api(server, other.token, 'POST', `${otherBase}/rules/validate`, draft());
      assert.match(
        foreign.body.problems.find((problem: Problem) => problem.path === '/origin/datasetIds/0').message,
        /no dataset with this id in this organization/,
      );
      assert.equal((await call('GET', `/rules/${rule.id}`)).body.name, rule.name);
    });

    it('loads rules for a run: enabled ones in order, named ones exactly, versions pinned', async () => {
      await deleteAllRules();
      const late = (await create(draft({ priority: 50, runOnIngest: true }))).body;
      const early = (await create(draft({ priority: 5 }))).body;
      const disabled = (await create(draft({ priority: 1, enabled: false }))).body;
      const all = await server.services.rules.loadForRun(server.database, organization.orgId, null);
      assert.deepEqual(
        all.map((rule) => rule.id),
        [early.id, late.id],
      );
      const checked = all[0]!;
      assert.equal(checked.version, 1);
      assert.deepEqual(checked.origin.datasetIds, [bank]);
      assert.equal(checked.origin.audience.get(bank)!.length, 1);
      assert.deepEqual(checked.conditions[0], { type: 'amount', sign: 'opposite', toleranceAbsolute: '0.50', tolerancePercent: null });
      assert.deepEqual(checked.conditions[1], {
        type: 'date',
        path: 'timestamp',
        field: { source: 'standard', name: 'timestamp', type: 'date' },
        minMilliseconds: -172_800_000,
        maxMilliseconds: 432_000_000,
      });
      const onIngest = await server.services.rules.loadForRun(server.database, organization.orgId, null, { onlyRunOnIngest: true });
      assert.deepEqual(
        onIngest.map((rule) => rule.id),
        [late.id],
      );
      const named = await server.services.rules.loadForRun(server.database, organization.orgId, [late.id, disabled.id]);
      assert.deepEqual(
        named.map((rule) => rule.id),
        [disabled.id, late.id],
        'a named rule runs even when disabled, in run order',
      );

      await call('DELETE', `/rules/${early.id}`);
      await assert.rejects(
        server.services.rules.loadForRun(server.database, organization.orgId, [late.id, early.id]),
        (error: unknown) => error instanceof AppError && error.kind === 'invalid_request' && error.details[0]!.path === '/ruleIds/1',
      );

      await call('PATCH', `/rules/${late.id}`, { name: 'Late, renamed' });
      const pinned = await server.services.rules.loadVersions(server.database, organization.orgId, [
        { id: late.id, version: 1 },
        { id: early.id, version: 1 },
      ]);
      assert.deepEqual(
        pinned.map((rule) => [rule.id, rule.version, rule.name]),
        [
          [late.id, 1, late.name],
          [early.id, 1, early.name],
        ],
      );
      await assert.rejects(
        server.services.rules.loadVersions(server.database, organization.orgId, [{ id: late.id, version: 9 }]),
        (error: unknown) => error instanceof AppError && error.kind === 'conflict' && /has no version 9/.test(error.message),
      );

      // A dataset changed under a stored rule: the engine gets a clear error, not a broken rule.
      await server.database.query(`UPDATE datasets SET columns = '[]' WHERE id = $1`, [ledger]);
      try {
        await assert.rejects(
          server.services.rules.loadForRun(server.database, organization.orgId, [late.id]),
          (error: unknown) => error instanceof AppError && error.kind === 'conflict' && /no longer fits its datasets.*invoiceNumber/.test(error.message),
        );
      } finally {
        await server.database.query(
          `UPDATE datasets SET columns = '[{"name": "invoiceNumber", "type": "number"}, {"name": "dueDate", "type": "date"}, {"name": "payoutId", "type": "string"}]' WHERE id = $1`,
          [ledger],
        );
      }
    });
  });
}
