import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { freePort } from '../../support/net.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';
import { backdateDueDate, insertReconciliation, insertUser } from '../../support/exception-fixtures.ts';

/**
 * The daily digest of the exceptions queue, sent through a real SMTP server (the smtp-server
 * package, listening on a free port) that the test reads: one message per assignee per day with
 * the exceptions newly given to them and those past their due date, in sentences; nothing more
 * on a second run the same day; the next day only what is overdue. Overdue exceptions are also
 * events, once per due date. Without SMTP_URL nothing is sent.
 */

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** The text of a message: headers unfolded and the quoted-printable body decoded. */
function readMail(raw: string): { subject: string; to: string; body: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head!.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(headers)?.[1] ?? '';
  let body = rest.join('\n\n');
  if (/quoted-printable/i.test(header('Content-Transfer-Encoding'))) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => `%${hex}`);
    body = decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
  }
  return { subject: header('Subject'), to: header('To'), body: body.replace(/\r\n/g, '\n') };
}

const DAY = 86_400_000;
const dayOf = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);

for (const kind of storeKinds()) {
  describe(`exception digest by e-mail (${kind})`, () => {
    let smtp: SMTPServer;
    let received: ReceivedMail[];
    let server: TestServer;
    let organization: TestOrganization;
    let ids: Record<string, string>;
    let ann: string;
    let bob: string;

    before(async () => {
      received = [];
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              raw: Buffer.concat(chunks).toString('utf8'),
            });
            callback();
          });
        },
      });
      const port = await freePort();
      await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
      server = await startTestServer(kind, { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Month-end close <close@example.com>' });
      organization = await createTestOrganization(server, 'Acme Trading');
      const { datasetId: bankId } = await createDataset(server, organization, { name: 'Operating account' });
      const now = server.clock.now();
      ids = await addTransactions(server, organization, bankId, [
        { externalId: 'fee', timestamp: now - 20 * DAY, description: 'Card fee', reference: 'R-100', amount: '-12.50', currency: 'EUR' },
        { externalId: 'receipt', timestamp: now - 5 * DAY, description: 'Unknown receipt', amount: '1200.00', currency: 'EUR' },
        { externalId: 'interest', timestamp: now - 3 * DAY, description: 'Interest', amount: '0.42', currency: 'EUR' },
      ]);
      await insertReconciliation(server, organization.orgId, 'Operating account EUR', [bankId], []);
      ann = await insertUser(server, organization.orgId, 'ann@example.com');
      bob = await insertUser(server, organization.orgId, 'bob@example.com');
    });
    after(async () => {
      await server.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);

    it('sends each assignee one digest a day with what is new and what is overdue, and nothing more that day', async () => {
      const today = dayOf(server.clock.now());
      const yesterday = dayOf(server.clock.now() - DAY);
      const nextWeek = dayOf(server.clock.now() + 7 * DAY);
      assert.equal((await call('PATCH', `/exceptions/${ids.fee}`, { assigneeUserId: ann, dueDate: today })).status, 200);
      await backdateDueDate(server, ids.fee!, yesterday);
      assert.equal(
        (await call('PATCH', `/exceptions/${ids.receipt}`, { assigneeUserId: ann, dueDate: nextWeek, holdReason: 'waiting for the invoice' })).status,
        200,
      );
      assert.equal((await call('POST', '/exceptions/assign', { transactionIds: [ids.interest], assigneeUserId: bob })).status, 200);

      await server.services.exceptionDigest.run();
      assert.equal(received.length, 2, JSON.stringify(received.map((mail) => mail.to)));
      const toAnn = received.find((mail) => mail.to.includes('ann@example.com'))!;
      assert.equal(toAnn.from, 'close@example.com');
      const annMail = readMail(toAnn.raw);
      assert.equal(annMail.subject, 'Exceptions to follow up in Acme Trading: 1 newly assigned, 1 overdue');
      const feeDate = dayOf(server.clock.now() - 20 * DAY);
      const receiptDate = dayOf(server.clock.now() - 5 * DAY);
      const lines = annMail.body.split('\n');
      assert.ok(lines.includes('These exceptions of Acme Trading are yours to follow up.'), annMail.body);
      assert.ok(lines.includes('Newly assigned to you:'), annMail.body);
      assert.ok(
        lines.includes(`- On ${receiptDate}, “Unknown receipt” of 1200.00 EUR in Operating account, due by ${nextWeek}; on hold: waiting for the invoice.`),
        annMail.body,
      );
      assert.ok(lines.includes('Past their due date:'), annMail.body);
      assert.ok(lines.includes(`- On ${feeDate}, “Card fee” (reference R-100) of -12.50 EUR in Operating account, was due by ${yesterday}.`), annMail.body);
      assert.ok(lines.includes(`Open the exceptions queue: ${server.config.publicUrl}/close`), annMail.body);
      assert.doesNotMatch(annMail.body, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'no ids in the message');
      const bobMail = readMail(received.find((mail) => mail.to.includes('bob@example.com'))!.raw);
      assert.equal(bobMail.subject, 'Exceptions to follow up in Acme Trading: 1 newly assigned');
      assert.match(bobMail.body, /“Interest” of 0\.42 EUR in Operating account\./);

      // Overdue exceptions are events too (webhooks), once per due date.
      const overdue = await call('GET', '/events?type=exception.overdue&limit=100');
      assert.deepEqual(
        overdue.body.events.map((event: any) => [event.data.transactionId, event.data.assigneeUserId, event.data.dueDate]),
        [[ids.fee, ann, yesterday]],
      );

      // A second run the same day, even with a new assignment, sends nothing.
      assert.equal((await call('PATCH', `/exceptions/${ids.interest}`, { assigneeUserId: ann })).status, 200);
      const second = await server.services.exceptionDigest.run();
      assert.equal(second.digestsSent, 0);
      assert.equal(received.length, 2);
      const rows = await server.database.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM exception_digests WHERE organization_id = $1 AND digest_date = $2',
        [organization.orgId, today],
      );
      assert.equal(rows[0]!.count, 2);

      // The next day: Ann hears of what was given to her since, and of what is still overdue; Bob has nothing new.
      server.clock.advance(DAY);
      const third = await server.services.exceptionDigest.run();
      assert.equal(third.digestsSent, 1);
      assert.equal(received.length, 3);
      assert.deepEqual(received[2]!.to, ['ann@example.com']);
      const nextDay = readMail(received[2]!.raw);
      assert.equal(nextDay.subject, 'Exceptions to follow up in Acme Trading: 1 newly assigned, 1 overdue');
      assert.match(nextDay.body, /“Interest” of 0\.42 EUR/);
      assert.match(nextDay.body, /“Card fee”.*was due by/);
      assert.doesNotMatch(nextDay.body, /Unknown receipt/);
      const overdueAgain = await call('GET', '/events?type=exception.overdue&limit=100');
      assert.equal(overdueAgain.body.events.length, 1, 'an exception is reported overdue once per due date');
    });

    it('sends nothing without SMTP_URL, and still reports overdue exceptions as events', async () => {
      const quiet = await startTestServer(kind);
      try {
        assert.equal(quiet.config.smtpUrl, null);
        const org = await createTestOrganization(quiet);
        const { datasetId } = await createDataset(quiet, org, { name: 'Account' });
        const [id] = Object.values(await addTransactions(quiet, org, datasetId, [{ externalId: 'a', timestamp: quiet.clock.now() - 9 * DAY, amount: '5.00' }]));
        await insertReconciliation(quiet, org.orgId, 'Account', [datasetId], []);
        const user = await insertUser(quiet, org.orgId, 'carol@example.com');
        const patched = await api(quiet, org.token, 'PATCH', `/v1/api/${org.orgId}/exceptions/${id}`, {
          assigneeUserId: user,
        });
        assert.equal(patched.status, 200);
        await backdateDueDate(quiet, id!, dayOf(quiet.clock.now() - 2 * DAY));
        const before = received.length;
        const result = await quiet.services.exceptionDigest.run();
        assert.equal(result.digestsSent, 0);
        assert.equal(received.length, before);
        const digests = await quiet.database.query('SELECT 1 FROM exception_digests');
        assert.equal(digests.length, 0);
        const events = await api(quiet, org.token, 'GET', `/v1/api/${org.orgId}/events?type=exception.overdue`);
        assert.equal(events.body.events.length, 1);
      } finally {
        await quiet.close();
      }
    });
  });
}
