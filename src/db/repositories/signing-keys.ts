import type { Queryable } from '../database.ts';

export interface SigningKeyRow {
  kid: string;
  public_jwk: Record<string, unknown>;
  private_jwk: Record<string, unknown>;
  created_at: Date;
  activates_at: Date;
  /** When the next newer key took over signing; null while this key is the newest active one. */
  superseded_at: Date | null;
}

/**
 * Keys still worth knowing: those not yet superseded (including keys published ahead of their
 * activation), and those superseded less than `retentionSeconds` ago, whose tokens may still be
 * alive. Newest activation first.
 */
export async function listLiveSigningKeys(database: Queryable, retentionSeconds: number): Promise<SigningKeyRow[]> {
  return database.query<SigningKeyRow>(
    `SELECT * FROM (
       SELECT kid, public_jwk, private_jwk, created_at, activates_at,
              (SELECT min(newer.activates_at) FROM signing_keys newer
                WHERE newer.activates_at > k.activates_at AND newer.activates_at <= now()) AS superseded_at
         FROM signing_keys k
     ) keys
     WHERE superseded_at IS NULL OR superseded_at > now() - make_interval(secs => $1)
     ORDER BY activates_at DESC, created_at DESC`,
    [retentionSeconds],
  );
}

export async function insertSigningKey(
  database: Queryable,
  key: { kid: string; publicJwk: object; privateJwk: object; activatesInSeconds: number },
): Promise<{ activatesAt: Date }> {
  const rows = await database.query<{ activates_at: Date }>(
    `INSERT INTO signing_keys (kid, algorithm, public_jwk, private_jwk, activates_at)
     VALUES ($1, 'RS256', $2, $3, now() + make_interval(secs => $4))
     RETURNING activates_at`,
    [key.kid, JSON.stringify(key.publicJwk), JSON.stringify(key.privateJwk), key.activatesInSeconds],
  );
  return { activatesAt: rows[0]!.activates_at };
}

/** Serializes key creation across processes so that a fresh store gets exactly one first key. */
export async function lockSigningKeys(database: Queryable): Promise<void> {
  await database.query('LOCK TABLE signing_keys IN SHARE ROW EXCLUSIVE MODE');
}

export async function countSigningKeys(database: Queryable): Promise<number> {
  const rows = await database.query<{ count: number }>('SELECT count(*) AS count FROM signing_keys');
  return rows[0]!.count;
}
