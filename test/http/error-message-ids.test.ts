import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The error envelope names the catalogue's message (messageId, src/errors.ts) when it has one, so
 * that a client words it its own way (the web app does); a message worded where it happened has
 * none. The message itself is unchanged.
 */
describe('error envelope: the catalogue name of the message', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let base: string;

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    base = `/v1/api/${organization.orgId}`;
  });
  after(async () => server?.close());

  it('gives messageId for a message of the catalogue, and none for one worded where it happened', async () => {
    const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank' });
    const dataset = await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, { name: 'Account' });
    const response = await fetch(`${server.baseUrl}${base}/datasets/${dataset.body.id}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
      body: '',
    });
    const empty = (await response.json()) as { error: Record<string, unknown> };
    assert.equal(empty.error.messageId, 'imports.fileEmpty', JSON.stringify(empty));
    assert.equal(empty.error.message, 'the file is empty; send the statement file itself');

    const cursor = await api(server, organization.token, 'GET', `${base}/imports?datasetId=${dataset.body.id}&cursor=not-ours`);
    assert.equal(cursor.status, 400);
    assert.equal(cursor.body.error.messageId?.startsWith('lists.'), true, JSON.stringify(cursor.body));

    const missing = await api(server, organization.token, 'GET', `${base}/rules/00000000-0000-4000-8000-000000000000`);
    assert.equal(missing.status, 404);
    assert.equal('messageId' in missing.body.error, false, JSON.stringify(missing.body));
    const invalid = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank', colour: 'blue' });
    assert.equal(invalid.status, 400);
    assert.equal('messageId' in invalid.body.error, false);
  });
});
