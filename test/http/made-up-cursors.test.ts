import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * A cursor in clear can be made up by anyone who reads one: the prefix and the base64url of
 * "time|id". One whose time or id the database cannot read is refused as not ours (400), never
 * a failure of the server.
 */
const made = (prefix: string, text: string) => prefix + Buffer.from(text, 'utf8').toString('base64url');
const ID = '00000000-0000-4000-8000-000000000000';
const MADE_UP = ['garbage|alsogarbage', `2026-01-01 00:00:00+00|not-a-uuid`, `99999-99-99|${ID}`, `2026-02-30 25:61:00+00|${ID}`];

for (const kind of storeKinds()) {
  describe(`made-up cursors of the lists in creation order (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
    });
    after(async () => server.close());

    for (const [list, prefix] of [
      ['/suggestions', 's1.'],
      ['/runs', 'r1.'],
    ] as const) {
      it(`refuses a made-up cursor of ${list} as not one the service issued`, async () => {
        for (const text of MADE_UP) {
          const response = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}${list}?cursor=${made(prefix, text)}`);
          assert.equal(response.status, 400, `${list} ${text}: ${JSON.stringify(response.body)}`);
          assert.match(response.body.error.message, /cursor: is not a cursor this service issued/);
        }
        // A well-formed position that merely lies beyond the list is a page like any other.
        const beyond = await api(
          server,
          organization.token,
          'GET',
          `/v1/api/${organization.orgId}${list}?cursor=${made(prefix, `2026-01-01 00:00:00+00|${ID}`)}`,
        );
        assert.equal(beyond.status, 200);
      });
    }
  });
}
