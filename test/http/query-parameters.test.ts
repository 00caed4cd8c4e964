import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * Unknown query parameters are refused with a 400 that names them, as unknown body members are,
 * on every operation: those that take parameters and those that take none. The web app's pages,
 * the API documentation and the token endpoint (RFC 6749 §3.2) are left their query strings.
 */

for (const kind of storeKinds()) {
  describe(`query parameters (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
    });
    after(async () => server.close());

    const refusedNaming = (answer: { status: number; body: any }, name: string, message: RegExp) => {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error.details[0].path, `/querystring/${name}`, JSON.stringify(answer.body));
      assert.match(answer.body.error.details[0].message, message);
    };

    it('refuses a parameter an operation does not take, naming it', async () => {
      const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank' });
      const dataset = await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, { name: 'Statement' });
      refusedNaming(
        await api(server, organization.token, 'GET', `${base}/datasets/${dataset.body.id}/import-mappings?limit=5`),
        'limit',
        /unknown parameter "limit": this operation takes no query parameters$/,
      );
      refusedNaming(
        await api(server, organization.token, 'GET', `${base}/sources?limit=5`),
        'limit',
        /unknown parameter "limit"; remove it or check its spelling$/,
      );
      refusedNaming(
        await api(server, organization.token, 'POST', `${base}/transactions?limit=5`, { datasetId: dataset.body.id }),
        'limit',
        /takes no query parameters; what it takes goes in the JSON body/,
      );
      refusedNaming(
        await api(server, organization.token, 'GET', `${base}/audit-events?limt=5`),
        'limt',
        /unknown parameter "limt"; remove it or check its spelling/,
      );
      refusedNaming(await api(server, null, 'GET', '/auth/session?next=/dashboard'), 'next', /unknown parameter "next"/);
      refusedNaming(await api(server, null, 'GET', '/health?probe=1'), 'probe', /unknown parameter "probe"/);
      refusedNaming(await api(server, null, 'GET', '/.well-known/jwks.json?fresh=1'), 'fresh', /unknown parameter "fresh"/);
      // The parameters an operation takes are still taken, and an unknown path is still a 404.
      assert.equal((await api(server, organization.token, 'GET', `${base}/audit-events?limit=5`)).status, 200);
      assert.equal((await api(server, organization.token, 'GET', `${base}/sources`)).status, 200);
      assert.equal((await api(server, null, 'GET', '/no/such/page?x=1')).status, 404);
    });

    it('leaves pages their query strings, and the token endpoint ignores what it does not know but refuses its parameters in the URL', async () => {
      const asset = readdirSync('web/dist/assets').find((name) => name.endsWith('.js'))!;
      for (const path of ['/transactions?dataset=00000000-0000-4000-8000-000000000000', '/docs?view=all', `/assets/${asset}?v=2`]) {
        const response = await fetch(`${server.baseUrl}${path}`);
        await response.arrayBuffer();
        assert.equal(response.status, 200, path);
      }
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: organization.clientId,
        client_secret: organization.clientSecret,
        audience: server.config.audience,
      });
      const token = (query: string, body: URLSearchParams) =>
        fetch(`${server.baseUrl}/oauth/token${query}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      assert.equal((await token('?tenant=main', form)).status, 200);
      const { client_secret: secret, ...rest } = Object.fromEntries(form);
      const inUrl = await token(`?client_secret=${encodeURIComponent(secret!)}`, new URLSearchParams(rest));
      assert.equal(inUrl.status, 400);
      const body = (await inUrl.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_request');
      assert.match(body.error_description, /"client_secret" was sent in the URL/);
    });
  });
}
