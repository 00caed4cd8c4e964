import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { postgresSkipReason } from '../support/harness.ts';

/**
 * The PostgreSQL half of every data-layer suite runs only with DATABASE_URL. This test makes
 * that visible in the runner's own summary: skipped, with the reason, when it is not set; and
 * when it is set, a server that cannot be reached fails here with a plain message.
 */
describe('PostgreSQL suites', () => {
  it('reach the PostgreSQL server named by DATABASE_URL', { skip: postgresSkipReason }, async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
    } catch (error) {
      assert.fail(`DATABASE_URL is set but PostgreSQL cannot be reached: ${(error as Error).message}`);
    }
    const rows = (await client.query<{ major: number }>("SELECT current_setting('server_version_num')::int / 10000 AS major")).rows;
    await client.end();
    assert.ok(rows[0]!.major >= 14, `PostgreSQL 14 or later is needed, found ${rows[0]!.major}`);
  });
});
