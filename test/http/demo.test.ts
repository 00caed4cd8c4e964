import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seedDemoIntoEmptyStore, type DemoCredentials } from '../../src/domain/demo-seed.ts';
import { api, requestToken, startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';

/**
 * The first-start demo loads its two sides through the importer: the bank statement as a
 * camt.053 file, the ledger as a CSV export, and a payment provider's settlement report (Stripe's,
 * read with its preset) of two payouts; it ships four matching rules and queues one commit
 * run of them, which the job queue carries out. A new user sees all of it work, so it is checked
 * here through the API as that user would look at it.
 */
for (const kind of storeKinds()) {
  describe(`demo organization (${kind})`, () => {
    let server: TestServer;
    let demo: DemoCredentials;
    let token: string;
    let run: Record<string, any>;

    before(async () => {
      server = await startTestServer(kind);
      demo = (await seedDemoIntoEmptyStore(server.services))!;
      token = await requestToken(server, demo.clientId, demo.clientSecret);
      run = await demoRun();
    });
    after(() => server.close());

    /** The run the seed queued, once the job queue has finished it. */
    const demoRun = async () => {
      for (let attempt = 0; attempt < 300; attempt += 1) {
        const answer = await api(server, token, 'GET', `/v1/api/${demo.orgId}/runs`);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.runs.length, 1, 'the seed queues exactly one run');
        const [current] = answer.body.runs;
        if (!['queued', 'running'].includes(current.status)) return current;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the demo run did not finish');
    };

    const page = async (datasetId: string, columns: string[]) => {
      const answer = await api(server, token, 'POST', `/v1/api/${demo.orgId}/transactions`, {
        datasetId,
        limit: 100,
        columns: columns.map((path) => ({ path })),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body as Array<Record<string, any>>;
    };

    it('lists the bank statement (camt.053), the ledger export (CSV) and the Stripe settlement report (CSV) as completed imports', async () => {
      const answer = await api(server, token, 'GET', `/v1/api/${demo.orgId}/imports`);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.imports.length, 3);
      const byFile = new Map<string, any>(answer.body.imports.map((record: any) => [record.fileName, record]));
      const statement = byFile.get('northwind-2026-10.camt053.xml');
      assert.equal(statement.format, 'camt.053');
      assert.equal(statement.status, 'completed');
      assert.equal(statement.datasetId, demo.bankDatasetId);
      assert.equal(statement.inserted, 28);
      assert.deepEqual(
        { entries: statement.statements[0].entries, sumOfEntries: statement.statements[0].sumOfEntries, balanced: statement.statements[0].balanced },
        { entries: 28, sumOfEntries: '54711.60', balanced: true },
      );
      const ledger = byFile.get('gl-1200-2026-10.csv');
      assert.equal(ledger.format, 'csv');
      assert.equal(ledger.status, 'completed');
      assert.equal(ledger.datasetId, demo.ledgerDatasetId);
      assert.equal(ledger.inserted, 27);
      assert.equal(ledger.statements[0].sumOfEntries, '58296.90');
    });

    it('fills the bank columns from the statement and leaves the month part reconciled, by hand and by the rules', async () => {
      const bank = await page(demo.bankDatasetId, ['valueDate', 'counterpartyName', 'bankReference', 'bankTransactionCode', 'amount']);
      assert.equal(bank.length, 30, 'the month of the statement and two rows of November');
      const fee = bank.find((record) => record.bankReference === 'NWB-2026-10-FEE')!;
      assert.deepEqual(
        { amount: fee.amount, type: fee.type, counterpartyName: fee.counterpartyName, status: fee.reconciliationStatus, valueDate: fee.valueDate },
        { amount: '-12.50', type: 'fee', counterpartyName: 'Northwind Bank', status: 'informative', valueDate: Date.UTC(2026, 9, 28) },
      );
      const statuses = bank.map((record) => record.reconciliationStatus);
      assert.equal(statuses.filter((status) => status === 'out of scope').length, 1);
      assert.equal(statuses.filter((status) => status === 'full').length, 24, JSON.stringify(statuses));
      assert.deepEqual(
        bank.filter((record) => record.reconciliationStatus === 'none').map((record) => record.counterpartyName),
        ['Westcott Dental', 'Yarrow Design', 'Harwick Office Supplies', 'Brightwater GmbH'],
        'two receipts of October are still open: one waits for a person to choose its invoice, one nobody can explain yet; November has begun',
      );
      const methods = bank.flatMap((record) => record.incomingMatches.map((match: { method: string }) => match.method));
      assert.equal(methods.filter((method) => method === 'manual').length, 11, 'ten receipts and the short payment were matched by hand');
      assert.equal(
        methods.filter((method) => method === 'rule').length,
        20,
        'eleven groups by the rules, one of them with three links, and two payouts of five and two rows',
      );

      const ledger = await page(demo.ledgerDatasetId, ['documentNumber', 'account', 'amount']);
      assert.equal(ledger.length, 28);
      assert.ok(ledger.every((record) => record.account === '1200 Cash at bank' && /^DOC-3\d{4}$/.test(record.documentNumber)));
      const shortPaid = ledger.filter((record) => record.reconciliationStatus === 'partial');
      assert.deepEqual(
        shortPaid.map((record) => record.amount),
        ['1000.00'],
        'the invoice paid short (980.00 of 1000.00) stays partial',
      );
      assert.deepEqual(
        ledger
          .filter((record) => record.reconciliationStatus === 'none')
          .map((record) => record.documentNumber)
          .sort(),
        ['DOC-30022', 'DOC-30023', 'DOC-30097', 'DOC-30101'],
      );
    });

    it('ships four rules and runs them once: matches by the rules, a fee closed as an adjustment, a deposit for three invoices, two payouts, one suggestion', async () => {
      const rules = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/rules`)).body as Array<Record<string, any>>;
      assert.deepEqual(
        rules.map((rule) => [rule.name, rule.cardinality, rule.priority]),
        [
          ['Invoice reference in bank text', '1:1', 10],
          ['Amount with bank fee', '1:1', 20],
          ['Deposit pays several invoices', '1:N', 30],
          ['Stripe payouts', '1:N', 40],
        ],
      );
      assert.equal(run.status, 'completed', JSON.stringify(run));
      assert.equal(run.mode, 'commit');
      assert.deepEqual(run.progress, { examined: run.progress.total, total: run.progress.total });
      assert.deepEqual(
        run.counts.map((count: Record<string, unknown>) => [count.name, count.matched, count.ambiguous, count.boundsHit]),
        [
          ['Invoice reference in bank text', 9, 0, 0],
          ['Amount with bank fee', 1, 0, 0],
          ['Deposit pays several invoices', 1, 1, 0],
          ['Stripe payouts', 2, 0, 0],
        ],
      );
      assert.deepEqual(run.totals, { matched: 13, suggested: 0, ambiguous: 1, classified: 0, boundsHit: 0, closedPeriodSkipped: 0 });

      const bank = await page(demo.bankDatasetId, ['counterpartyName']);
      const receiptOf = (name: string) => bank.find((record) => record.counterpartyName === name)!;
      const [byReference] = receiptOf('Kestrel Aviation').incomingMatches;
      assert.deepEqual([byReference.method, byReference.ruleId, byReference.runId], ['rule', rules[0]!.id, run.id]);
      const referenceGroup = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/match-groups/${byReference.groupId}`)).body;
      const equals = referenceGroup.evidence.conditions.find((condition: { type: string }) => condition.type === 'equals');
      assert.deepEqual(
        [equals.origin, equals.target, equals.held],
        ['inv10410', 'inv10410', true],
        'the invoice number found in "KESTREL AVIATION INV10410 OCT"',
      );

      const [withFee] = receiptOf('Lindqvist AB').incomingMatches;
      assert.equal(withFee.ruleId, rules[1]!.id);
      const feeGroup = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/match-groups/${withFee.groupId}`)).body;
      assert.deepEqual(feeGroup.adjustment, { amount: '6.50', reason: 'fee' });

      const deposit = receiptOf('Quayside Hotels').incomingMatches;
      assert.equal(deposit.length, 3);
      assert.ok(deposit.every((match: { ruleId: string; groupId: string }) => match.ruleId === rules[2]!.id && match.groupId === deposit[0].groupId));
      assert.deepEqual(deposit.map((match: { amount: string }) => match.amount).sort(), ['300.00', '500.00', '700.00']);

      const suggestions = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/suggestions?status=pending`)).body.suggestions;
      assert.equal(suggestions.length, 1);
      assert.equal(suggestions[0].reason, 'ambiguous');
      assert.equal(suggestions[0].runId, run.id);
      const payment = receiptOf('Westcott Dental');
      assert.ok(suggestions[0].options.every((option: { links: { originId: string }[] }) => option.links[0]!.originId === payment.id));
      const ledger = await page(demo.ledgerDatasetId, ['reference']);
      const invoices = suggestions[0].options.map(
        (option: { links: { targetId: string }[] }) => ledger.find((record) => record.id === option.links[0]!.targetId)!.reference,
      );
      assert.deepEqual(invoices.sort(), ['INV-10422', 'INV-10497'], 'two invoices of 1340.00 fit the payment equally: a person chooses');
    });

    it("imports Stripe's settlement report with its preset and matches each payout's charges, refund and fees to its bank deposit", async () => {
      const sources = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/sources`)).body;
      const stripe = (sources as Array<{ name: string; datasets: Array<{ id: string; name: string; columns: { name: string; type: string }[] }> }>).find(
        (source) => source.name === 'Stripe',
      )!;
      const [provider] = stripe.datasets;
      assert.equal(provider!.name, 'Stripe balance EUR');
      const columns = Object.fromEntries(provider!.columns.map((column) => [column.name, column.type]));
      assert.deepEqual([columns.payoutId, columns.gross, columns.fee], ['string', 'money', 'money']);

      const imports = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/imports`)).body.imports;
      const report = imports.find((record: { datasetId: string }) => record.datasetId === provider!.id);
      assert.deepEqual([report.format, report.fileName, report.inserted], ['csv', 'stripe-payout-reconciliation-2026-10.csv', 7]);
      assert.ok(
        report.warnings.some((warning: { message: string }) => warning.message.includes('preset "stripe-payout-reconciliation"')),
        JSON.stringify(report.warnings),
      );

      const rows = await page(provider!.id, ['payoutId', 'gross', 'fee', 'amount']);
      assert.equal(rows.length, 7);
      assert.ok(
        rows.every((row) => row.reconciliationStatus === 'full'),
        JSON.stringify(rows.map((row) => row.reconciliationStatus)),
      );
      const refund = rows.find((row) => row.type === 'refund')!;
      assert.deepEqual([refund.payoutId, refund.amount, refund.gross, refund.fee], ['po_1QDemoPayoutOct30A', '-89.90', '-89.90', '0.00']);

      const bank = await page(demo.bankDatasetId, ['endToEndId', 'counterpartyName', 'amount']);
      const deposits = bank.filter((record) => record.counterpartyName === 'Stripe Payments Europe Ltd');
      assert.deepEqual(
        deposits.map((record) => [record.endToEndId, record.amount, record.reconciliationStatus]),
        [
          ['po_1QDemoPayoutOct30A', '1699.57', 'full'],
          ['po_1QDemoPayoutOct31B', '921.90', 'full'],
        ],
      );
      const [first] = deposits[0]!.incomingMatches;
      const group = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/match-groups/${first.groupId}`)).body;
      assert.deepEqual(group.evidence.group.byType, [
        { type: 'charge', count: 3, sum: '1793.67' },
        { type: 'fee', count: 1, sum: '-4.20' },
        { type: 'refund', count: 1, sum: '-89.90' },
      ]);
      assert.deepEqual([group.evidence.group.total, group.evidence.group.difference], ['1699.57', '0.00']);
    });

    it('reconciles the operating account with the ledger: October at 0.00 once the run has matched, November open with an exception assigned, due and commented', async () => {
      const { reconciliations } = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/reconciliations`)).body;
      assert.equal(reconciliations.length, 1);
      const [reconciliation] = reconciliations;
      assert.deepEqual(
        [reconciliation.name, reconciliation.currency, reconciliation.bankDatasetIds, reconciliation.ledgerDatasetIds, reconciliation.ledgerOpeningDate],
        ['Operating account EUR ↔ Cash at bank 1200', 'EUR', [demo.bankDatasetId], [demo.ledgerDatasetId], '2026-10-01'],
      );
      const statement = await server.services.closeSignoff.statement(demo.orgId, reconciliation.id, '2026-10-31');
      assert.equal(statement.unexplainedDifference, '0.00', JSON.stringify(statement));
      assert.equal(statement.signOff.state, 'open');
      assert.deepEqual(
        statement.bankNotInLedger.items.map((item) => item.amount),
        ['1340.00', '950.00'],
        'what the bank holds and the ledger does not: the payment waiting for a choice and the unexplained deposit',
      );

      const november = await server.services.closeSignoff.statement(demo.orgId, reconciliation.id, '2026-11-30');
      assert.equal(november.unexplainedDifference, '0.00', JSON.stringify(november));
      assert.deepEqual(
        [november.signOff.state, november.bankNotInLedger.items.map((item) => item.amount), november.ledgerNotInBank.items.map((item) => item.amount)],
        ['open', ['1340.00', '950.00', '-1180.00', '615.00'], ['1000.00', '1340.00', '1340.00', '777.77', '2340.00']],
      );

      const bank = await page(demo.bankDatasetId, ['counterpartyName']);
      const payment = bank.find((record) => record.counterpartyName === 'Harwick Office Supplies')!;
      const exception = await server.services.exceptions.get(demo.orgId, payment.id);
      assert.equal(exception.assignee?.email, demo.email);
      // The demo's follow-up is due on 4 December 2026, or today once that day has passed (a due date is never set in the past).
      assert.equal(exception.dueDate, ['2026-12-04', server.services.exceptions.today()].sort().at(-1));
      assert.deepEqual(
        exception.comments.map((comment) => [comment.author, comment.body]),
        [[`user:${demo.email}`, "Waiting for the supplier's invoice"]],
      );
      const reviewers = await server.services.database.query<{ role: string }>('SELECT role FROM users WHERE organization_id = $1 AND email <> $2', [
        demo.orgId,
        demo.email,
      ]);
      assert.deepEqual(
        reviewers.map((user) => user.role),
        ['Reviewer'],
        'a second person to approve what the administrator prepares',
      );
    });

    it('lets the administrator prepare October and the reviewer approve it, four eyes, at 0.00', async () => {
      const [reconciliation] = (await api(server, token, 'GET', `/v1/api/${demo.orgId}/reconciliations`)).body.reconciliations;
      const [reviewer] = await server.services.database.query<{ id: string; email: string }>(
        "SELECT id::text AS id, email FROM users WHERE organization_id = $1 AND role = 'Reviewer'",
        [demo.orgId],
      );
      const as = (email: string) => ({ organizationId: demo.orgId, actor: `user:${email}`, requestId: null });
      await server.services.database.transaction((transaction) =>
        server.services.closeSignoff.prepare(transaction, as(demo.email), reconciliation.id, '2026-10-31', 'October agreed to the bank statement'),
      );
      const approved = await server.services.database.transaction((transaction) =>
        server.services.closeSignoff.approve(
          transaction,
          as(reviewer!.email),
          { userId: reviewer!.id, clientId: `user:${reviewer!.id}` },
          reconciliation.id,
          '2026-10-31',
          null,
        ),
      );
      assert.deepEqual(
        [approved.state, approved.unexplainedDifference, approved.preparedBy, approved.approvedBy],
        ['approved', '0.00', demo.email, 'rowan.reviewer@demo.example'],
      );
    });

    it('is made once: a store that holds an organization is not seeded again', async () => {
      assert.equal(await seedDemoIntoEmptyStore(server.services), null);
    });
  });
}
