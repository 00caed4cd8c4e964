import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';

for (const kind of storeKinds()) {
  describe(`smoke (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(async () => server.close());

    it('issues a token and refuses a request without one', async () => {
      const organization = await createTestOrganization(server);
      assert.ok(organization.token.split('.').length === 3);
      const response = await api(server, null, 'POST', `/v1/api/${organization.orgId}/transactions`, {});
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="ledger-recon"');
      assert.equal(response.body.error.code, 401);
      assert.equal(response.body.error.request, response.headers.get('x-request-id'));
    });
  });
}
