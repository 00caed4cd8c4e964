import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seedCloseMonth, type SeededCloseMonth } from '../../support/close-month.ts';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions } from '../../support/recon-fixtures.ts';

/** The sign-off of a period (SPEC §14, four eyes): prepare, approve by another person, reopen by an Administrator. */
for (const kind of storeKinds()) {
  describe(`close sign-off (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let month: SeededCloseMonth;
    let reviewer: TestOrganization;
    let viewer: TestOrganization;
    let member: TestOrganization;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      month = await seedCloseMonth(server, organization);
      reviewer = await createTestClient(server, organization.orgId, 'Reviewer');
      viewer = await createTestClient(server, organization.orgId, 'View-only');
      member = await createTestClient(server, organization.orgId, 'Full member');
    });
    after(() => server.close());

    it('prepares only at 0.00, stores the statement, lets another person approve, and reopens with a reason keeping the record', async () => {
      const path = `${month.base}/reconciliations/${month.reconciliationId}`;
      const march = `${path}/periods/2026-03-31`;

      // A wrong opening balance leaves 10.00 unexplained: no preparing.
      assert.equal((await api(server, organization.token, 'PATCH', path, { ledgerOpeningBalance: '10010.00' })).status, 200);
      const refused = await api(server, member.token, 'POST', `${march}/prepare`, { note: 'March done' });
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body.error.messageId, 'close.differenceNotZero');
      assert.match(refused.body.error.message, /the unexplained difference is -10\.00 EUR/);
      assert.equal((await api(server, organization.token, 'PATCH', path, { ledgerOpeningBalance: '10000.00' })).status, 200);

      // A reviewer reads but does not prepare (no write:data).
      assert.equal((await api(server, reviewer.token, 'POST', `${march}/prepare`, { note: 'x' })).status, 403);
      const prepared = await api(server, member.token, 'POST', `${march}/prepare`, { note: 'March done' });
      assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
      assert.equal(prepared.body.state, 'prepared');
      assert.equal(prepared.body.preparedBy, 'Full member client');
      assert.equal(prepared.body.unexplainedDifference, '0.00');
      const again = await api(server, member.token, 'POST', `${march}/prepare`, { note: 'twice' });
      assert.equal(again.status, 409, JSON.stringify(again.body));

      // The data changes after the sign-off: the period shows the statement as it was prepared.
      await addTransactions(server, organization, month.ledgerDatasetId, [
        { externalId: 'late', timestamp: Date.UTC(2026, 2, 31, 9), amount: '25.00', currency: 'EUR', description: 'Late entry' },
      ]);
      assert.equal((await api(server, organization.token, 'PATCH', path, { ledgerOpeningBalance: '9000.00' })).status, 200);
      const stored = await api(server, viewer.token, 'GET', `${path}/statement?periodEnd=2026-03-31`);
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
      assert.equal(stored.body.ledgerBalance.amount, '13430.00');
      assert.equal(stored.body.unexplainedDifference, '0.00');
      assert.ok(!stored.body.ledgerNotInBank.items.some((item: any) => item.description === 'Late entry'));
      assert.deepEqual(
        [stored.body.signOff.state, stored.body.signOff.preparedBy, stored.body.signOff.preparerNote],
        ['prepared', 'Full member client', 'March done'],
      );

      // Four eyes: not the preparer, not a View-only or Full member; a Reviewer may.
      const byViewer = await api(server, viewer.token, 'POST', `${march}/approve`, {});
      assert.equal(byViewer.status, 403, JSON.stringify(byViewer.body));
      assert.equal(byViewer.body.error.messageId, 'close.approverRoleNeeded');
      const bySelf = await api(server, member.token, 'POST', `${march}/approve`, {});
      assert.equal(bySelf.status, 403, JSON.stringify(bySelf.body));
      assert.equal(bySelf.body.error.messageId, 'close.approverRoleNeeded');
      const approved = await api(server, reviewer.token, 'POST', `${march}/approve`, { note: 'Checked against the bank letter' });
      assert.equal(approved.status, 200, JSON.stringify(approved.body));
      assert.deepEqual([approved.body.state, approved.body.preparedBy, approved.body.approvedBy], ['approved', 'Full member client', 'Reviewer client']);

      const periods = await api(server, viewer.token, 'GET', `${path}/periods`);
      assert.equal(periods.status, 200, JSON.stringify(periods.body));
      const marchPeriod = periods.body.periods.find((period: any) => period.periodEnd === '2026-03-31');
      assert.equal(marchPeriod.state, 'approved');
      assert.deepEqual(
        marchPeriod.history.map((step: any) => [step.step, step.by, step.note]),
        [
          ['prepare', 'Full member client', 'March done'],
          ['approve', 'Reviewer client', 'Checked against the bank letter'],
        ],
      );
      // April is open, and its difference shows the opening balance changed by hand.
      const april = periods.body.periods.find((period: any) => period.periodEnd === '2026-04-30');
      assert.equal(april.state, 'open');
      assert.equal(april.unexplainedDifference, '1000.00');

      // Reopening: an Administrator with a reason only.
      assert.equal((await api(server, reviewer.token, 'POST', `${march}/reopen`, { reason: 'x' })).status, 403);
      const byMember = await api(server, member.token, 'POST', `${march}/reopen`, { reason: 'A late entry' });
      assert.equal(byMember.status, 403, JSON.stringify(byMember.body));
      assert.equal(byMember.body.error.messageId, 'close.reopenNeedsAdministrator');
      assert.equal((await api(server, organization.token, 'POST', `${march}/reopen`, {})).status, 400);
      const reopened = await api(server, organization.token, 'POST', `${march}/reopen`, { reason: 'A late entry of 25.00' });
      assert.equal(reopened.status, 200, JSON.stringify(reopened.body));
      assert.equal(reopened.body.state, 'open');
      assert.deepEqual(
        reopened.body.history.map((step: any) => step.step),
        ['prepare', 'approve', 'reopen'],
      );
      const kept = await server.database.query<{ step: string; difference: string | null }>(
        `SELECT s.step, s.statement ->> 'unexplainedDifference' AS difference FROM close_signoffs s ORDER BY s.sequence`,
      );
      assert.deepEqual(
        kept.map((row) => [row.step, row.difference]),
        [
          ['prepare', '0.00'],
          ['approve', null],
          ['reopen', null],
        ],
      );
      // Open again, the statement is computed from the data as it stands.
      const recomputed = await api(server, viewer.token, 'GET', `${path}/statement?periodEnd=2026-03-31`);
      assert.equal(recomputed.body.signOff.state, 'open');
      assert.equal(recomputed.body.unexplainedDifference, '1000.00');
      assert.equal((await api(server, member.token, 'POST', `${march}/approve`, {})).status, 403);
      assert.equal((await api(server, reviewer.token, 'POST', `${march}/approve`, {})).status, 409);

      // Audited, and emitted as events.
      const audit = await api(server, organization.token, 'GET', `${month.base}/audit-events?object=reconciliation`);
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
      const actions = audit.body.events.map((event: any) => event.action);
      for (const action of ['reconciliation.created', 'reconciliation.updated', 'close_period.prepared', 'close_period.approved', 'close_period.reopened']) {
        assert.ok(actions.includes(action), `${action} in ${actions}`);
      }
      const events = await api(
        server,
        organization.token,
        'GET',
        `${month.base}/events?type=close_period.prepared,close_period.approved,close_period.reopened`,
      );
      assert.equal(events.status, 200, JSON.stringify(events.body));
      assert.deepEqual(
        events.body.events.map((event: any) => [event.type, event.data.periodEnd]),
        [
          ['close_period.prepared', '2026-03-31'],
          ['close_period.approved', '2026-03-31'],
          ['close_period.reopened', '2026-03-31'],
        ],
      );
    });

    it('lets the preparer not approve their own period, even as an Administrator', async () => {
      const other = await createTestOrganization(server);
      const seeded = await seedCloseMonth(server, other);
      const march = `${seeded.base}/reconciliations/${seeded.reconciliationId}/periods/2026-03-31`;
      assert.equal((await api(server, other.token, 'POST', `${march}/prepare`, { note: 'done' })).status, 200);
      const self = await api(server, other.token, 'POST', `${march}/approve`, {});
      assert.equal(self.status, 403, JSON.stringify(self.body));
      assert.equal(self.body.error.messageId, 'close.preparerCannotApprove');
      const otherAdministrator = await createTestClient(server, other.orgId, 'Administrator');
      assert.equal((await api(server, otherAdministrator.token, 'POST', `${march}/approve`, {})).status, 200);
    });
  });
}
