import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { run } from '../../support/processes.ts';

/**
 * The values the client commands check before anything is sent (docs/CLI.md): what they refuse
 * is what the server refuses, since both check with the SDK's definitions. The options are read
 * before a profile is, so these run without logging in.
 */
describe('command line option values', () => {
  let home: string;
  const cli = (args: string[]) => run(args, { XDG_CONFIG_HOME: home });
  const datasetId = '00000000-0000-4000-8000-000000000000';

  before(() => {
    home = mkdtempSync(path.join(tmpdir(), 'ledger-recon-cli-arguments-'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('refuses a day that does not exist, also at the start of a date-time, naming the option and the last day of the month', () => {
    // Date.parse reads 2024-02-30 as 1 March: the listing would quietly have started a day late.
    const leapless = cli(['transactions', '--dataset', datasetId, '--from', '2024-02-30']);
    assert.equal(leapless.status, 2, leapless.stderr);
    assert.match(leapless.stderr, /option '--from <time>' argument '2024-02-30' is invalid/);
    assert.match(leapless.stderr, /"2024-02-30" is not a date: February 2024 has no day 30; give a day from 01 to 29, e\.g\. 2024-02-29/);
    const inATime = cli(['transactions', '--dataset', datasetId, '--to', '2023-02-29T12:00:00Z']);
    assert.equal(inATime.status, 2, inATime.stderr);
    assert.match(inATime.stderr, /option '--to <time>' argument '2023-02-29T12:00:00Z' is invalid/);
    assert.match(inATime.stderr, /"2023-02-29" is not a date: February 2023 has no day 29/);
    // A real leap day passes the check, and the command goes on to look for a profile.
    const leapDay = cli(['transactions', '--dataset', datasetId, '--from', '2024-02-29']);
    assert.equal(leapDay.status, 3, leapDay.stderr);
    assert.match(leapDay.stderr, /not logged in/);
  });

  describe('amounts, as the server checks them', () => {
    let server: TestServer;
    let organization: TestOrganization;
    before(async () => {
      server = await startTestServer('pglite');
      organization = await createTestOrganization(server);
    });
    after(() => server.close());

    it('refuses 7 decimal places in an ID=AMOUNT with the fix, where the server refuses them too and takes 6', async () => {
      const precise = cli(['match', '--origin', `${datasetId}=1.1234567`, '--target', datasetId]);
      assert.equal(precise.status, 2, precise.stderr);
      assert.match(precise.stderr, /option '--origin <id\[=amount\]>' argument '[^']*=1\.1234567' is invalid/);
      assert.match(precise.stderr, /amount "1\.1234567" has 7 decimal places; amounts have at most 6: round it to 6/);
      const comma = cli(['match', '--origin', `${datasetId}=12,50`, '--target', datasetId]);
      assert.match(comma.stderr, /amount "12,50" has a comma for decimals; write them after a dot, e\.g\. 12\.50/);

      const source = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/sources`, { name: 'Precise bank' });
      const dataset = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/sources/${source.body.id}/datasets`, { name: 'Precise' });
      assert.equal(dataset.status, 201, JSON.stringify(dataset.body));
      const query = (start: string) =>
        api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/transactions`, {
          datasetId: dataset.body.id,
          search: [{ path: 'amount', search: { type: 'money', value: { start } } }],
        });
      const refused = await query('1.1234567');
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.match(JSON.stringify(refused.body), /up to 18 digits before the point and 6 after/);
      const taken = await query('1.123456');
      assert.equal(taken.status, 200, JSON.stringify(taken.body));
    });
  });
});
