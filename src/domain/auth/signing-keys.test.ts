import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestStore, storeKinds } from '../../../support/harness.ts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { SigningKeys } from './signing-keys.ts';

const TOKEN_TTL_SECONDS = 600;

for (const kind of storeKinds()) {
  describe(`SigningKeys (${kind})`, () => {
    let database: Database;
    let drop: () => Promise<void>;

    before(async () => {
      ({ database, drop } = await openTestStore(kind));
    });
    after(async () => drop());

    it('creates exactly one first key, even when several processes start at once', async () => {
      await Promise.all([new SigningKeys(database, TOKEN_TTL_SECONDS).ensureKey(), new SigningKeys(database, TOKEN_TTL_SECONDS).ensureKey()]);
      const rows = await database.query<{ count: number }>('SELECT count(*) AS count FROM signing_keys');
      assert.equal(rows[0]!.count, 1);
    });

    it('publishes a rotated key at once, signs with it from its activation, and keeps the old key while its tokens live', async () => {
      const keys = new SigningKeys(database, TOKEN_TTL_SECONDS);
      const { kid: oldKid } = await keys.signingKey();
      const rotated = await keys.rotate(120);
      assert.ok(Date.parse(rotated.activatesAt) > Date.now() + 100_000);
      assert.deepEqual((await keys.jwks()).keys.map((key) => key.kid).sort(), [oldKid, rotated.kid].sort());
      assert.equal((await keys.signingKey()).kid, oldKid);
      assert.ok(await keys.verificationKey(rotated.kid), 'the next key verifies before it signs');

      // Another process learns of the key from the store.
      const elsewhere = new SigningKeys(database, TOKEN_TTL_SECONDS);
      assert.ok((await elsewhere.jwks()).keys.some((key) => key.kid === rotated.kid));

      // Time passes (moved rather than waited for): the new key signs, the old one still verifies.
      await database.query(`UPDATE signing_keys SET activates_at = activates_at - interval '121 seconds'`);
      await keys.reload();
      assert.equal((await keys.signingKey()).kid, rotated.kid);
      assert.ok(await keys.verificationKey(oldKid));
      // A token lifetime (and the margin for processes still signing with the old key) later, the old key is gone.
      await database.query(`UPDATE signing_keys SET activates_at = activates_at - make_interval(secs => $1)`, [TOKEN_TTL_SECONDS + 30]);
      await keys.reload();
      assert.ok(
        (await keys.jwks()).keys.some((key) => key.kid === oldKid),
        'kept for the margin',
      );
      await database.query(`UPDATE signing_keys SET activates_at = activates_at - interval '31 seconds'`);
      await keys.reload();
      assert.deepEqual(
        (await keys.jwks()).keys.map((key) => key.kid),
        [rotated.kid],
      );
      assert.equal(await keys.verificationKey(oldKid), undefined);
    });

    it('refuses a nonsensical activation delay', async () => {
      const keys = new SigningKeys(database, TOKEN_TTL_SECONDS);
      for (const delay of [-1, 1.5, Number.NaN, 365 * 24 * 3600]) {
        await assert.rejects(keys.rotate(delay), (error: unknown) => error instanceof AppError && error.kind === 'invalid_request', String(delay));
      }
    });

    it('publishes public keys only', async () => {
      const { keys } = await new SigningKeys(database, TOKEN_TTL_SECONDS).jwks();
      for (const key of keys) {
        assert.equal(key.d, undefined);
        assert.equal(key.p, undefined);
        assert.equal(key.alg, 'RS256');
        assert.equal(key.use, 'sig');
      }
    });
  });
}
