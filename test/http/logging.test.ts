import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createServices } from '../../src/domain/services.ts';

describe('request log', () => {
  it('never writes query strings, where careless clients put tokens and secrets', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    const database = openDatabase({ databaseUrl: null, dataDirectory: null });
    await migrate(database);
    const services = createServices(loadConfig({}, { seedDemo: false }), database);
    await services.signingKeys.ensureKey();
    const app = await buildApp({ services, logger: { level: 'info', stream } });
    try {
      const refused = await app.inject({ method: 'POST', url: '/v1/api/00000000-0000-0000-0000-000000000000/transactions?access_token=TOKEN-IN-QUERY', payload: {} });
      assert.equal(refused.statusCode, 401);
      await app.inject({ method: 'POST', url: '/oauth/token?client_secret=lrs_SECRET-IN-QUERY', payload: {} });
    } finally {
      await app.close();
      await database.close();
    }
    assert.match(log, /"url":"\/v1\/api\/0{8}-0{4}-0{4}-0{4}-0{12}\/transactions\?\[query omitted\]"/);
    assert.doesNotMatch(log, /IN-QUERY/);
  });
});
