import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createServices } from '../../src/domain/services.ts';
import { openTestStore } from '../../support/harness.ts';

describe('request log', () => {
  it('never writes query strings, where careless clients put tokens and secrets', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const { database } = await openTestStore('pglite');
    const services = createServices(loadConfig({}, { seedDemo: false }), database);
    await services.signingKeys.ensureKey();
    const app = await buildApp({ services, logger: { level: 'info', stream } });
    try {
      const refused = await app.inject({
        method: 'POST',
        url: '/v1/api/00000000-0000-0000-0000-000000000000/transactions?access_token=TOKEN-IN-QUERY',
        payload: {},
      });
      assert.equal(refused.statusCode, 401);
      await app.inject({ method: 'POST', url: '/oauth/token?client_secret=lrs_SECRET-IN-QUERY', payload: {} });
      // An invitation link carries its secret in the path.
      await app.inject({ method: 'GET', url: '/auth/invitations/INVITATION-SECRET-IN-PATH-0123456789' });
      await app.inject({ method: 'GET', url: '/invitations/INVITATION-SECRET-IN-PATH-0123456789' });
    } finally {
      await app.close();
      await database.close();
    }
    assert.match(log, /"url":"\/v1\/api\/0{8}-0{4}-0{4}-0{4}-0{12}\/transactions\?\[query omitted\]"/);
    assert.doesNotMatch(log, /IN-QUERY/);
    assert.doesNotMatch(log, /IN-PATH/);
    assert.match(log, /"url":"\/auth\/invitations\/\[secret omitted\]"/);
  });

  it('logs a failed request by error code and request id, never the row data a database error quotes', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const { database } = await openTestStore('pglite');
    // A real error of the store, whose message and "where" quote the data of the statement.
    const storeError = await database.query('SELECT $1::json', ['[{"ordinal":0,"external_id":"CUSTOMER-SECRET-ROW"']).then(
      () => assert.fail('the statement should fail'),
      (error: unknown) => error,
    );
    assert.match(JSON.stringify(storeError, Object.getOwnPropertyNames(storeError)), /CUSTOMER-SECRET-ROW/);
    const services = createServices(loadConfig({}, { seedDemo: false }), database);
    const app = await buildApp({ services, logger: { level: 'info', stream } });
    app.get('/failing-for-test', async () => {
      throw storeError;
    });
    try {
      const answer = await app.inject({ method: 'GET', url: '/failing-for-test' });
      assert.equal(answer.statusCode, 500);
      assert.doesNotMatch(answer.body, /CUSTOMER-SECRET-ROW/);
      const requestId = answer.headers['x-request-id'];
      const line = log.split('\n').find((entry) => entry.includes('request failed'));
      assert.ok(line, log);
      const entry = JSON.parse(line);
      assert.equal(entry.reqId, requestId);
      assert.equal(entry.err.code, (storeError as { code: string }).code);
      assert.doesNotMatch(log, /CUSTOMER-SECRET-ROW/);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
