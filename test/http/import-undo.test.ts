import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { eventually, startReceiver, verify, type TestReceiver } from '../../support/receiver.ts';

/**
 * A dataset's account (a statement of another account is refused unless allowed) and undoing an
 * import (DELETE /imports/{id}), through the real server on both stores.
 */

const HOME_IBAN = 'NL91ABNA0417164300';
const OTHER_IBAN = 'DE89370400440532013000';

/** An MT940 statement of an account with the given entries (amounts in cents). */
function mt940(account: string, statement: string, entries: { day: string; cents: number; reference: string }[]): string {
  let balance = 100_000;
  const lines = [`:20:STMT${statement}`, `:25:${account}`, `:28C:${statement}/1`, ':60F:C240301EUR1000,00'];
  for (const entry of entries) {
    balance += entry.cents;
    const amount = (Math.abs(entry.cents) / 100).toFixed(2).replace('.', ',');
    lines.push(
      `:61:2403${entry.day}03${entry.day}${entry.cents < 0 ? 'D' : 'C'}${amount}NTRF${entry.reference}//B${entry.reference}`,
      `:86:Payment ${entry.reference}`,
    );
  }
  lines.push(`:62F:C2403${entries.at(-1)!.day}EUR${(balance / 100).toFixed(2).replace('.', ',')}`, '-');
  return lines.join('\r\n') + '\r\n';
}

const FIRST_FILE = mt940(HOME_IBAN, '00001', [
  { day: '04', cents: -12_050, reference: 'INV1001' },
  { day: '05', cents: 45_000, reference: 'INV1002' },
  { day: '06', cents: -3_000, reference: 'INV1003' },
]);
/** Overlaps the first file by its last entry and adds two. */
const SECOND_FILE = mt940(HOME_IBAN, '00002', [
  { day: '06', cents: -3_000, reference: 'INV1003' },
  { day: '07', cents: 7_525, reference: 'INV1004' },
  { day: '08', cents: -990, reference: 'INV1005' },
]);

for (const kind of storeKinds()) {
  describe(`import undo and dataset accounts (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let other: TestOrganization;
    let base: string;
    let sourceId: string;
    const receivers: TestReceiver[] = [];

    before(async () => {
      server = await startTestServer(kind, { webhookAllowPrivateTargets: true, webhookRetryBaseMilliseconds: 100, webhookTimeoutSeconds: 2 });
      organization = await createTestOrganization(server);
      other = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      sourceId = (await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank' })).body.id;
    });
    after(async () => {
      for (const receiver of receivers) await receiver.close();
      await server.close();
    });

    const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `${base}${path}`, body);

    async function newDataset(name = `Account ${Math.random()}`): Promise<string> {
      const created = await call('POST', `/sources/${sourceId}/datasets`, { name });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id;
    }

    async function importFile(datasetId: string, text: string, query = '', headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream', ...headers },
        body: text,
      });
      return { status: response.status, body: await response.json() };
    }

    async function datasetOf(datasetId: string): Promise<any> {
      const sources = (await call('GET', '/sources')).body as any[];
      return sources.flatMap((source) => source.datasets).find((dataset) => dataset.id === datasetId);
    }

    async function stored(datasetId: string): Promise<any[]> {
      const page = await call('POST', '/transactions', {
        datasetId,
        limit: 1000,
        columns: [{ path: 'externalId' }, { path: 'amount' }, { path: 'reconciliationStatus' }],
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      return page.body;
    }

    /**
     * Imports a statement of `references` into the (otherwise empty) bank dataset, stores a ledger
     * row of the same amount for each, and matches the first `matched` of them pairwise, one group
     * each. Returns the import, both sides' rows (in the same order) and the groups.
     */
    async function importMatched(bankId: string, ledgerId: string, references: string[], matched: number) {
      const imported = await importFile(
        bankId,
        mt940(
          HOME_IBAN,
          references[0]!.replace(/\D/g, '').slice(0, 10),
          references.map((reference) => ({ day: '12', cents: -1_000, reference })),
        ),
      );
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      const ingested = await call('POST', `/datasets/${ledgerId}/transactions`, {
        records: references.map((reference) => ({ timestamp: Date.UTC(2024, 2, 12), amount: '10.00', externalId: `L-${reference}` })),
      });
      assert.equal(ingested.status, 200, JSON.stringify(ingested.body));
      const bank = await stored(bankId);
      const ledger = (await stored(ledgerId)).filter((row) => references.some((reference) => row.externalId === `L-${reference}`));
      assert.deepEqual([bank.length, ledger.length], [references.length, references.length]);
      const groupIds: string[] = [];
      for (let index = 0; index < matched; index++) {
        const match = await call('POST', '/matches', { links: [{ originId: ledger[index].id, targetId: bank[index].id }] });
        assert.equal(match.status, 201, JSON.stringify(match.body));
        groupIds.push(match.body.groupId);
      }
      return { imported, bank, ledger, groupIds };
    }

    it('takes the account and currency from the first statement, refuses a statement of another account naming both, and imports it when allowed', async () => {
      const datasetId = await newDataset('Operating account');
      assert.deepEqual([(await datasetOf(datasetId)).accountId, (await datasetOf(datasetId)).currency], [null, null]);
      const first = await importFile(datasetId, FIRST_FILE);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const dataset = await datasetOf(datasetId);
      assert.deepEqual([dataset.accountId, dataset.currency], [HOME_IBAN, 'EUR']);

      const foreign = mt940(OTHER_IBAN, '00009', [{ day: '10', cents: 5_000, reference: 'X1' }]);
      const refused = await importFile(datasetId, foreign);
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.match(
        refused.body.error.message,
        /statement of account DE89 3704 0044 0532 0130 00 .*dataset "Operating account" holds the statements of account NL91 ABNA 0417 1643 00/,
      );
      assert.match(refused.body.error.message, /allowOtherAccount=true/);
      assert.equal(refused.body.error.details[0].path, '/querystring/allowOtherAccount');
      assert.equal((await stored(datasetId)).length, 3, 'nothing of the refused file is stored');
      const listed = (await call('GET', `/imports?datasetId=${datasetId}`)).body.imports;
      assert.equal(listed[0].status, 'failed');
      assert.equal(listed[0].error.reason, 'refused');

      const allowed = await importFile(datasetId, foreign, '?allowOtherAccount=true');
      assert.equal(allowed.status, 201, JSON.stringify(allowed.body));
      assert.equal(allowed.body.inserted, 1);
      assert.equal((await datasetOf(datasetId)).accountId, HOME_IBAN, 'the dataset keeps its account');

      // The same account written with spaces and in small letters is the same account.
      const spaced = mt940('nl91 abna 0417 1643 00', '00003', [{ day: '11', cents: 100, reference: 'S1' }]);
      assert.equal((await importFile(datasetId, spaced)).status, 201);
    });

    it("edits a dataset's account and currency, refusing values that are not an account or a currency by their field", async () => {
      const datasetId = await newDataset();
      const changed = await call('PATCH', `/datasets/${datasetId}`, { accountId: 'de89 3704 0044 0532 0130 00', currency: 'EUR' });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual([changed.body.accountId, changed.body.currency], [OTHER_IBAN, 'EUR']);
      assert.deepEqual([(await datasetOf(datasetId)).accountId], [OTHER_IBAN]);

      const badIban = await call('PATCH', `/datasets/${datasetId}`, { accountId: 'DE89370400440532013001' });
      assert.equal(badIban.status, 400);
      assert.equal(badIban.body.error.details[0].path, '/accountId');
      assert.match(badIban.body.error.message, /check digits/);
      const badCurrency = await call('PATCH', `/datasets/${datasetId}`, { currency: 'euro' });
      assert.equal(badCurrency.status, 400);
      assert.match(badCurrency.body.error.message, /currency/);

      // The dataset now belongs to the other account: the home account's statement is refused.
      assert.equal((await importFile(datasetId, FIRST_FILE)).status, 409);
      const cleared = await call('PATCH', `/datasets/${datasetId}`, { accountId: null });
      assert.equal(cleared.body.accountId, null);
      assert.equal(cleared.body.currency, 'EUR', 'a field left out stays');
      assert.equal((await importFile(datasetId, FIRST_FILE)).status, 201);
      assert.equal((await datasetOf(datasetId)).accountId, HOME_IBAN);

      const foreign = await api(server, other.token, 'PATCH', `/v1/api/${other.orgId}/datasets/${datasetId}`, { currency: 'USD' });
      assert.equal(foreign.status, 404);
    });

    it('undoes an import: exactly the transactions it created go, the import stays as undone, twice is refused, and the file imports again', async () => {
      const datasetId = await newDataset();
      const first = await importFile(datasetId, FIRST_FILE);
      const second = await importFile(datasetId, SECOND_FILE);
      assert.deepEqual([second.body.inserted, second.body.duplicates], [2, 1]);
      assert.equal((await stored(datasetId)).length, 5);

      const preview = await call('GET', `/imports/${second.body.id}/undo-preview`);
      assert.equal(preview.status, 200, JSON.stringify(preview.body));
      assert.deepEqual(
        { undoable: preview.body.undoable, transactions: preview.body.transactions, matched: preview.body.matched, refusal: preview.body.refusal },
        { undoable: true, transactions: 2, matched: 0, refusal: null },
      );

      const undone = await call('DELETE', `/imports/${second.body.id}?note=wrong%20file`);
      assert.equal(undone.status, 200, JSON.stringify(undone.body));
      assert.equal(undone.body.removed, 2);
      assert.equal(undone.body.import.status, 'undone');
      assert.ok(undone.body.import.undoneAt);
      const left = await stored(datasetId);
      assert.deepEqual(left.map((row) => row.amount).sort(), ['-120.50', '-30.00', '450.00'], 'the entry the first import created stays');
      assert.equal((await datasetOf(datasetId)).transactionCount, 3);

      const shown = await call('GET', `/imports/${second.body.id}`);
      assert.equal(shown.body.status, 'undone');
      assert.equal(shown.body.inserted, 2, 'the report stays as it was');
      const twice = await call('DELETE', `/imports/${second.body.id}`);
      assert.equal(twice.status, 409);
      assert.match(twice.body.error.message, /already undone/);
      assert.equal((await call('GET', `/imports/${second.body.id}/undo-preview`)).body.refusal.includes('already undone'), true);

      const again = await importFile(datasetId, SECOND_FILE);
      assert.equal(again.status, 201);
      assert.deepEqual([again.body.inserted, again.body.duplicates], [2, 1], 'the undone entries are stored again');
      assert.equal((await stored(datasetId)).length, 5);

      const audit = (await call('GET', '/audit-events?limit=1000')).body.events as any[];
      const entry = audit.find((event) => event.action === 'import.undone' && event.after.importId === second.body.id);
      assert.ok(entry, 'the undo is in the audit trail');
      assert.equal(entry.after.removed, 2);
      assert.equal(entry.note, 'wrong file');

      // A failed import stored nothing: nothing to undo.
      const failed = await importFile(datasetId, ':20:broken\r\n');
      assert.ok(failed.status >= 400);
      const failedId = (await call('GET', `/imports?datasetId=${datasetId}`)).body.imports[0].id;
      const refused = await call('DELETE', `/imports/${failedId}`);
      assert.equal(refused.status, 409);
      assert.match(refused.body.error.message, /failed and stored nothing/);
      void first;
    });

    it("gives back the account a dataset took from an import that is undone, so that the right account's statement goes in next", async () => {
      const datasetId = await newDataset();
      const wrong = await importFile(datasetId, mt940(OTHER_IBAN, '00001', [{ day: '04', cents: 1_000, reference: 'WRONG1' }]));
      assert.equal(wrong.status, 201, JSON.stringify(wrong.body));
      assert.equal((await datasetOf(datasetId)).accountId, OTHER_IBAN, 'the first statement set the account');
      const undone = await call('DELETE', `/imports/${wrong.body.id}`);
      assert.equal(undone.status, 200, JSON.stringify(undone.body));
      const released = await datasetOf(datasetId);
      assert.deepEqual([released.accountId, released.currency], [null, null], 'the undone import no longer holds the dataset to its account');
      const right = await importFile(datasetId, FIRST_FILE);
      assert.equal(right.status, 201, JSON.stringify(right.body));
      assert.equal((await datasetOf(datasetId)).accountId, HOME_IBAN);

      // With another completed import left, the dataset keeps its account.
      const more = await importFile(datasetId, SECOND_FILE);
      assert.equal(more.status, 201, JSON.stringify(more.body));
      assert.equal((await call('DELETE', `/imports/${more.body.id}`)).status, 200);
      assert.equal((await datasetOf(datasetId)).accountId, HOME_IBAN, 'the first file of the account is still imported');
    });

    it('undoes a CSV import (staged with COPY on PostgreSQL) exactly: its own rows go, rows an earlier file stored stay', async () => {
      const datasetId = await newDataset();
      const csv = (rows: [string, string, string][]) =>
        'externalId,timestamp,description,amount,currency\n' +
        rows.map(([id, day, amount]) => `${id},2024-03-${day},"Row ${id}, with a comma",${amount},EUR`).join('\n') +
        '\n';
      const first = await importFile(
        datasetId,
        csv([
          ['C1', '01', '10.00'],
          ['C2', '02', '-20.50'],
        ]),
      );
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const second = await importFile(
        datasetId,
        csv([
          ['C2', '02', '-20.50'],
          ['C3', '03', '30.25'],
          ['C4', '04', '0.01'],
        ]),
      );
      assert.deepEqual(
        [second.body.inserted, second.body.duplicates, second.body.statements[0]?.inserted ?? null],
        [2, 1, second.body.statements.length ? 2 : null],
      );
      assert.equal((await datasetOf(datasetId)).accountId, null, 'a CSV gives the dataset no account');
      const undone = await call('DELETE', `/imports/${second.body.id}`);
      assert.equal(undone.body.removed, 2, JSON.stringify(undone.body));
      assert.deepEqual((await stored(datasetId)).map((row) => row.externalId).sort(), ['C1', 'C2']);
      const again = await importFile(
        datasetId,
        csv([
          ['C2', '02', '-20.50'],
          ['C3', '03', '30.25'],
          ['C4', '04', '0.01'],
        ]),
      );
      assert.deepEqual([again.body.inserted, again.body.duplicates], [2, 1]);
      const rows = await stored(datasetId);
      assert.deepEqual(rows.map((row) => row.amount).sort(), ['-20.50', '0.01', '10.00', '30.25']);
    });

    it('refuses to undo an import with matched transactions, listing them, and with unmatch=true dissolves their groups and undoes it', async () => {
      const bankId = await newDataset();
      const ledgerId = await newDataset();
      const imported = await importFile(bankId, FIRST_FILE);
      const ingested = await call('POST', `/datasets/${ledgerId}/transactions`, {
        records: [{ timestamp: Date.UTC(2024, 2, 4), amount: '120.50', description: 'Invoice 1001', externalId: 'L-1001' }],
      });
      assert.equal(ingested.status, 200, JSON.stringify(ingested.body));
      const bankRows = await stored(bankId);
      const ledgerRows = await stored(ledgerId);
      const bankPayment = bankRows.find((row) => row.amount === '-120.50');
      const matched = await call('POST', '/matches', { links: [{ originId: ledgerRows[0].id, targetId: bankPayment.id }] });
      assert.equal(matched.status, 201, JSON.stringify(matched.body));

      const preview = (await call('GET', `/imports/${imported.body.id}/undo-preview`)).body;
      assert.deepEqual([preview.undoable, preview.transactions, preview.matched, preview.matchGroups], [false, 3, 1, 1]);
      assert.equal(preview.matchedTransactions[0].id, bankPayment.id);
      assert.equal(preview.matchedTransactions[0].amount, '-120.50');

      const refused = await call('DELETE', `/imports/${imported.body.id}`);
      assert.equal(refused.status, 409);
      assert.match(refused.body.error.message, /1 of the 3 transactions this import created is matched.*unmatch=true/);
      assert.match(refused.body.error.details[0].message, new RegExp(bankPayment.id));
      assert.equal((await stored(bankId)).length, 3, 'a refused undo removes nothing');

      const undone = await call('DELETE', `/imports/${imported.body.id}?unmatch=true`);
      assert.equal(undone.status, 200, JSON.stringify(undone.body));
      assert.deepEqual([undone.body.removed, undone.body.matchGroupsDissolved], [3, 1]);
      assert.equal((await stored(bankId)).length, 0);
      const ledger = await stored(ledgerId);
      assert.equal(ledger[0].reconciliationStatus, 'none', 'the other side is unmatched');
      const audit = (await call('GET', `/audit-events?transactionId=${ledgerRows[0].id}`)).body.events as any[];
      assert.ok(
        audit.some((event) => event.action === 'match.deleted'),
        'the dissolved match is in the audit trail',
      );
    });

    it('emits import.undone in the feed and to webhook endpoints', async () => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const endpoint = await call('POST', '/webhook-endpoints', { url: `${receiver.url}/hooks`, eventTypes: ['import.undone'] });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      const datasetId = await newDataset();
      const imported = await importFile(datasetId, FIRST_FILE);
      assert.equal((await call('DELETE', `/imports/${imported.body.id}`)).status, 200);

      const feed = (await call('GET', '/events?type=import.undone&limit=1000')).body.events as any[];
      const event = feed.find((candidate) => candidate.data.importId === imported.body.id);
      assert.ok(event, 'the undo is in the feed');
      assert.deepEqual([event.data.status, event.data.datasetId, event.data.inserted], ['undone', datasetId, 3]);

      const delivered = await eventually(
        () => receiver.received.find((message) => JSON.parse(message.body).data.importId === imported.body.id),
        'the webhook of the undo',
      );
      const message = verify(endpoint.body.secret, delivered);
      assert.equal(message.type, 'import.undone');
    });

    it("takes the dataset's counts and latest timestamp back to the rows it still holds", async () => {
      const datasetId = await newDataset();
      const first = await importFile(datasetId, FIRST_FILE);
      const second = await importFile(datasetId, SECOND_FILE);
      assert.equal(second.status, 201, JSON.stringify(second.body));
      const latestOf = (rows: any[]) => Math.max(...rows.map((row) => row.timestamp));
      const before = await datasetOf(datasetId);
      assert.equal(before.latestTimestamp, latestOf(await stored(datasetId)));
      assert.deepEqual([before.transactionCount, before.statusCounts.none], [5, 5]);

      // The second file holds the latest entry: once it is undone, the first file's latest is the dataset's.
      assert.equal((await call('DELETE', `/imports/${second.body.id}`)).status, 200);
      const left = await stored(datasetId);
      const after = await datasetOf(datasetId);
      assert.ok(after.latestTimestamp < before.latestTimestamp);
      assert.equal(after.latestTimestamp, latestOf(left), 'the latest timestamp of the rows the dataset still holds');
      assert.deepEqual([after.transactionCount, after.statusCounts.none], [3, 3]);

      // Undoing an import whose rows are not the latest leaves it as it is; undoing the last one leaves none.
      const older = await importFile(datasetId, mt940(HOME_IBAN, '00000', [{ day: '01', cents: 500, reference: 'OLD1' }]));
      assert.equal(older.status, 201, JSON.stringify(older.body));
      assert.equal((await call('DELETE', `/imports/${older.body.id}`)).status, 200);
      assert.equal((await datasetOf(datasetId)).latestTimestamp, after.latestTimestamp);
      assert.equal((await call('DELETE', `/imports/${first.body.id}`)).status, 200);
      const empty = await datasetOf(datasetId);
      assert.deepEqual([empty.latestTimestamp, empty.transactionCount, empty.statusCounts.none], [null, 0, 0]);
    });

    it('dissolves the match groups of an import in a number of statements that does not grow with the groups, with the same audit trail and events', async () => {
      const ledgerId = await newDataset();
      /** Imports `count` entries, matches each with a ledger row of its own, and returns what the undo did and what it ran. */
      const undoMatched = async (count: number) => {
        const references = Array.from({ length: count }, (_, index) => `M${count}X${index}`);
        const { imported, ledger, groupIds } = await importMatched(await newDataset(), ledgerId, references, count);
        // The statements of the undo's own database transaction are counted as they run.
        const original = server.database.transaction.bind(server.database);
        const ran: string[][] = [];
        server.database.transaction = (work) =>
          original((transaction) => {
            const statements: string[] = [];
            ran.push(statements);
            return work({ ...transaction, query: (text, parameters) => (statements.push(text), transaction.query(text, parameters)) });
          });
        let undone;
        try {
          undone = await call('DELETE', `/imports/${imported.body.id}?unmatch=true`);
        } finally {
          server.database.transaction = original;
        }
        assert.equal(undone.status, 200, JSON.stringify(undone.body));
        assert.deepEqual([undone.body.removed, undone.body.matchGroupsDissolved], [count, count]);
        const statements = ran.find((list) => list.some((text) => text.includes("SET status = 'undone'")))!;
        return { groupIds, ledger, statements: statements.length };
      };

      const few = await undoMatched(2);
      const many = await undoMatched(30);
      assert.equal(many.statements, few.statements, 'one statement per step, whatever the number of groups');

      // What dissolving each group alone writes: its matches' deletion and both sides' status changes, in the audit trail and the feed.
      const audit = (await call('GET', '/audit-events?limit=1000')).body.events as any[];
      for (const [index, groupId] of many.groupIds.entries()) {
        const entries = audit.filter((event) => event.groupId === groupId);
        assert.deepEqual(
          entries.map((event) => event.action).sort(),
          ['match.created', 'match.deleted', ...Array(4).fill('transaction.status_changed')],
          'both sides matched, then both unmatched',
        );
        const ledgerChange = entries.find(
          (event) =>
            event.action === 'transaction.status_changed' && event.transactionId === many.ledger[index].id && event.before.reconciliationStatus === 'full',
        );
        assert.deepEqual(ledgerChange?.after, { reconciliationStatus: 'none', allocatedAmount: '0', matchCount: 0 }, JSON.stringify(entries));
      }
      const ledger = await stored(ledgerId);
      assert.ok(
        ledger.every((row) => row.reconciliationStatus === 'none'),
        'every other side is unmatched',
      );
      const dissolved = ((await call('GET', '/events?type=match_group.deleted&limit=1000')).body.events as any[]).map((event) => event.data.matchGroupId);
      assert.ok(
        many.groupIds.every((groupId) => dissolved.includes(groupId)),
        'an event for each dissolved group',
      );
      const changed = ((await call('GET', '/events?type=transaction.status_changed&limit=1000')).body.events as any[]).filter(
        (event) => many.ledger.some((row: any) => row.id === event.data.transactionId) && event.data.after.reconciliationStatus === 'none',
      );
      assert.equal(changed.length, many.ledger.length, 'an event for each other side unmatched');
    });

    it('refuses to undo an import that is queued or still running, with a 409 that says so, and changes nothing', async () => {
      const datasetId = await newDataset();
      // Queued: no process takes jobs, so the import waits, status running.
      await server.services.jobs.stop();
      let queued: { status: number; body: any };
      try {
        queued = await importFile(datasetId, FIRST_FILE, '', { prefer: 'respond-async' });
        assert.equal(queued.status, 202, JSON.stringify(queued.body));
        assert.equal((await call('GET', `/imports/${queued.body.id}`)).body.status, 'running');
        const preview = (await call('GET', `/imports/${queued.body.id}/undo-preview`)).body;
        assert.deepEqual([preview.undoable, preview.transactions], [false, 0]);
        assert.match(preview.refusal, /still running; wait until it has completed, then undo it/);
        const refused = await call('DELETE', `/imports/${queued.body.id}?unmatch=true`);
        assert.equal(refused.status, 409, JSON.stringify(refused.body));
        assert.match(refused.body.error.message, /the import is still running; wait until it has completed, then undo it/);
        const record = (await call('GET', `/imports/${queued.body.id}`)).body;
        assert.deepEqual([record.status, record.undoneAt], ['running', null], 'the import is as it was');
      } finally {
        await server.services.jobs.start();
      }
      const completed = await eventually(async () => {
        const record = (await call('GET', `/imports/${queued.body.id}`)).body;
        return record.status === 'completed' ? record : undefined;
      }, 'the queued import to complete');
      assert.equal(completed.inserted, 3, 'the refused undo left the import to run whole');
      const audit = (await call('GET', '/audit-events?limit=1000')).body.events as any[];
      assert.ok(!audit.some((event) => event.action === 'import.undone' && event.before?.importId === queued.body.id), 'no undo in the audit trail');

      // Running in this process: answered at once, and the import completes whole.
      // Long enough on PostgreSQL to be seen under way; on the embedded store any import is, since the refusal needs no database.
      const rows = kind === 'postgres' ? 50_000 : 10_000;
      const csv = `externalId,timestamp,amount,currency\n${Array.from({ length: rows }, (_, index) => `R${index},2024-03-01,1.00,EUR`).join('\n')}\n`;
      const running = fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'text/csv' },
        body: csv,
      });
      // Seen in the process, not through the API: on the embedded store a read waits for the import's transaction.
      let seen: any;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline && !seen;) {
        seen = server.services.imports.progress.runningIn(organization.orgId).find((record) => record.datasetId === datasetId);
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.ok(seen, 'the import was seen under way');
      const refused = await call('DELETE', `/imports/${seen.id}`);
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.match(refused.body.error.message, /still running/);
      const answer = await running;
      assert.equal(answer.status, 201);
      assert.equal(((await answer.json()) as any).inserted, rows);
      assert.equal((await call('GET', `/imports/${seen.id}`)).body.status, 'completed');
    });

    it('fails an import whose job failed for good as the importer fails one: counted on its dataset, its file recorded and its stored copy removed', async () => {
      const datasetId = await newDataset();
      await server.services.jobs.stop();
      let importId: string;
      try {
        const form = new FormData();
        form.append('file', new Blob([FIRST_FILE]), 'march.sta');
        const accepted = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports`, {
          method: 'POST',
          headers: { authorization: `Bearer ${organization.token}`, prefer: 'respond-async' },
          body: form,
        });
        assert.equal(accepted.status, 202);
        importId = ((await accepted.json()) as any).id;
        // Every attempt of its job was used up: the processes that took it stopped in the middle.
        await server.database.query('UPDATE jobs SET attempts = max_attempts WHERE id = (SELECT job_id FROM imports WHERE id = $1)', [importId]);
      } finally {
        await server.services.jobs.start();
      }
      const failed = await eventually(async () => {
        const record = (await call('GET', `/imports/${importId}`)).body;
        return record.status === 'failed' ? record : undefined;
      }, 'the import to be failed');
      assert.equal(failed.error.reason, 'interrupted');
      const dataset = await datasetOf(datasetId);
      assert.deepEqual([dataset.failures, dataset.lastFile], [1, 'march.sta'], 'counted on its dataset like any failed import');
      const chunks = await server.database.query<{ count: number }>('SELECT count(*)::integer AS count FROM import_file_chunks WHERE import_id = $1', [
        importId,
      ]);
      assert.equal(chunks[0]!.count, 0, 'the stored file is removed');
      const feed = (await call('GET', '/events?type=import.failed&limit=1000')).body.events as any[];
      assert.ok(
        feed.some((event) => event.data.importId === importId),
        'the failure is an event',
      );
      assert.equal((await stored(datasetId)).length, 0);
    });

    it('lets an undo and match writers on the same rows run at once without a deadlock (PostgreSQL)', { skip: kind !== 'postgres' }, async () => {
      const bankId = await newDataset();
      const ledgerId = await newDataset();
      const rounds = 25;
      for (let round = 0; round < rounds; round++) {
        // The rounds before were undone: the bank dataset holds this round's rows only.
        const references = [1, 2, 3, 4].map((entry) => `D${round}X${entry}`);
        const { imported, bank, ledger, groupIds: groups } = await importMatched(bankId, ledgerId, references, 3);
        // The undo dissolves the groups while they are dissolved and a match is made on its rows.
        const answers = await Promise.all([
          call('DELETE', `/imports/${imported.body.id}?unmatch=true`),
          call('DELETE', `/match-groups/${groups[0]}`),
          call('DELETE', `/match-groups/${groups[1]}`),
          call('POST', '/matches', { links: [{ originId: ledger[3].id, targetId: bank[3].id }] }),
          call('DELETE', `/match-groups/${groups[2]}`),
        ]);
        const [undo, ...writers] = answers;
        for (const answer of answers) assert.notEqual(answer.status, 503, `round ${round}: ${JSON.stringify(answer.body)}`);
        assert.equal(undo!.status, 200, `round ${round}: ${JSON.stringify(undo!.body)}`);
        assert.equal(undo!.body.removed, 4);
        for (const writer of writers) assert.ok([201, 204, 404].includes(writer.status), `round ${round}: ${writer.status} ${JSON.stringify(writer.body)}`);
        const after = (await stored(ledgerId)).filter((row) => ledger.some((entry: any) => entry.id === row.id));
        assert.ok(
          after.every((row) => row.reconciliationStatus === 'none'),
          `round ${round}: the other sides are unmatched`,
        );
        const groupsLeft = await server.database.query<{ count: number }>(
          'SELECT count(*)::integer AS count FROM matches WHERE origin_id = ANY ($1::uuid[]) OR target_id = ANY ($1::uuid[])',
          [ledger.map((row: any) => row.id)],
        );
        assert.equal(groupsLeft[0]!.count, 0, `round ${round}: no match is left on the removed rows`);
      }
      // The counts the database keeps agree with the rows.
      const counts = await server.database.query<{ kept: number; counted: number }>(
        `SELECT (SELECT coalesce(sum(transaction_count), 0)::integer FROM dataset_status_counts WHERE dataset_id = ANY ($1::uuid[])) AS kept,
                (SELECT count(*)::integer FROM transactions WHERE dataset_id = ANY ($1::uuid[])) AS counted`,
        [[bankId, ledgerId]],
      );
      assert.equal(counts[0]!.kept, counts[0]!.counted);
      assert.equal((await stored(bankId)).length, 0);
    });

    it("keeps another organization out: its preview and undo of this organization's import are 404", async () => {
      const datasetId = await newDataset();
      const imported = await importFile(datasetId, FIRST_FILE);
      const preview = await api(server, other.token, 'GET', `/v1/api/${other.orgId}/imports/${imported.body.id}/undo-preview`);
      assert.equal(preview.status, 404);
      const undo = await api(server, other.token, 'DELETE', `/v1/api/${other.orgId}/imports/${imported.body.id}?unmatch=true`);
      assert.equal(undo.status, 404);
      const acrossOrganizations = await api(server, other.token, 'DELETE', `${base}/imports/${imported.body.id}`);
      assert.equal(acrossOrganizations.status, 403);
      assert.equal((await stored(datasetId)).length, 3);
      assert.equal((await call('GET', `/imports/${imported.body.id}`)).body.status, 'completed');
    });
  });
}
