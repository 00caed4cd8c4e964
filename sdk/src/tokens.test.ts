import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LedgerReconError } from './errors.ts';
import { organizationOfToken, readTokenResponse, TokenCache } from './tokens.ts';

/** A promise settled from outside, to hold a token request open while others ask. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}

/** A clock the test moves by hand. */
function manualClock(startMs = 1_000_000) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    set: (valueMs: number) => {
      nowMs = valueMs;
    },
    advance: (durationMs: number) => {
      nowMs += durationMs;
    },
  };
}

/** A token source answering token-1, token-2, ... with the given lifetime, counting its requests. */
function numberedTokens(expiresInSeconds: number) {
  let requests = 0;
  return {
    fetchToken: async () => {
      requests += 1;
      return { accessToken: `token-${requests}`, expiresInSeconds };
    },
    requests: () => requests,
  };
}

function jwtWith(claims: unknown): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

describe('TokenCache', () => {
  it('makes one token request for many concurrent get() calls, and keeps the token for later ones', async () => {
    const clock = manualClock();
    const answer = deferred<{ accessToken: string; expiresInSeconds: number }>();
    let requests = 0;
    const cache = new TokenCache(
      () => {
        requests += 1;
        return answer.promise;
      },
      undefined,
      clock.now,
    );
    const pending = Array.from({ length: 50 }, () => cache.get());
    assert.equal(requests, 1);
    answer.resolve({ accessToken: 'shared', expiresInSeconds: 3600 });
    assert.deepEqual(
      await Promise.all(pending),
      Array.from({ length: 50 }, () => 'shared'),
    );
    assert.equal(await cache.get(), 'shared');
    assert.equal(requests, 1);
  });

  it('renews inside the default margin: 60 s before expiry for a long-lived token', async () => {
    const clock = manualClock(0);
    const tokens = numberedTokens(3600);
    const cache = new TokenCache(tokens.fetchToken, undefined, clock.now);
    assert.equal(await cache.get(), 'token-1');
    clock.set(3_540_000 - 1); // 60 s and 1 ms before expiry: still kept
    assert.equal(await cache.get(), 'token-1');
    assert.equal(tokens.requests(), 1);
    clock.set(3_540_000); // exactly 60 s before expiry: renewed
    assert.equal(await cache.get(), 'token-2');
    assert.equal(tokens.requests(), 2);
    // The new token counts from when it was asked for.
    clock.set(3_540_000 + 3_540_000 - 1);
    assert.equal(await cache.get(), 'token-2');
    clock.set(3_540_000 + 3_540_000);
    assert.equal(await cache.get(), 'token-3');
  });

  it('renews inside the default margin: 10% of the lifetime for a short-lived token', async () => {
    const clock = manualClock(0);
    const tokens = numberedTokens(300); // margin 30 s, not 60 s
    const cache = new TokenCache(tokens.fetchToken, undefined, clock.now);
    assert.equal(await cache.get(), 'token-1');
    clock.set(270_000 - 1);
    assert.equal(await cache.get(), 'token-1');
    clock.set(270_000);
    assert.equal(await cache.get(), 'token-2');
    assert.equal(tokens.requests(), 2);
  });

  it('renews renewBeforeExpirySeconds before expiry when that is given', async () => {
    const clock = manualClock(0);
    const tokens = numberedTokens(3600);
    const cache = new TokenCache(tokens.fetchToken, 5, clock.now);
    assert.equal(await cache.get(), 'token-1');
    clock.set(3_595_000 - 1); // well inside the default 60 s margin, outside the explicit 5 s one
    assert.equal(await cache.get(), 'token-1');
    clock.set(3_595_000);
    assert.equal(await cache.get(), 'token-2');

    const atExpiry = manualClock(0);
    const zeroMarginTokens = numberedTokens(10);
    const zeroMargin = new TokenCache(zeroMarginTokens.fetchToken, 0, atExpiry.now);
    assert.equal(await zeroMargin.get(), 'token-1');
    atExpiry.set(9_999);
    assert.equal(await zeroMargin.get(), 'token-1');
    atExpiry.set(10_000);
    assert.equal(await zeroMargin.get(), 'token-2');
  });

  it('counts the lifetime from when the token was asked for, not from when it arrived', async () => {
    const clock = manualClock(1_000);
    const cache = new TokenCache(
      async () => {
        clock.advance(20_000); // the answer took 20 s
        return { accessToken: 'slow', expiresInSeconds: 100 };
      },
      0,
      clock.now,
    );
    assert.equal(await cache.get(), 'slow');
    clock.set(1_000 + 100_000 - 1);
    assert.equal(await cache.get(), 'slow');
    clock.set(1_000 + 100_000);
    await cache.get();
    assert.equal(clock.now(), 1_000 + 100_000 + 20_000, 'a second token request was made at expiry');
  });

  it('invalidate forgets only the token it names', async () => {
    const clock = manualClock();
    const tokens = numberedTokens(3600);
    const cache = new TokenCache(tokens.fetchToken, undefined, clock.now);
    assert.equal(await cache.get(), 'token-1');
    cache.invalidate('some-older-token');
    assert.equal(await cache.get(), 'token-1');
    assert.equal(tokens.requests(), 1);
    cache.invalidate('token-1');
    assert.equal(await cache.get(), 'token-2');
    assert.equal(tokens.requests(), 2);
    // A caller whose token-1 was refused after token-2 came does not throw token-2 away.
    cache.invalidate('token-1');
    assert.equal(await cache.get(), 'token-2');
    assert.equal(tokens.requests(), 2);
  });

  it('does not keep a failed token request: every waiter gets the error and the next get tries again', async () => {
    const clock = manualClock();
    const answers = [deferred<{ accessToken: string; expiresInSeconds: number }>(), deferred<{ accessToken: string; expiresInSeconds: number }>()];
    let requests = 0;
    const cache = new TokenCache(() => answers[requests++]!.promise, undefined, clock.now);
    const refused = new Error('invalid_client');
    const first = cache.get();
    const second = cache.get();
    answers[0]!.reject(refused);
    await assert.rejects(first, (error) => error === refused);
    await assert.rejects(second, (error) => error === refused);
    assert.equal(requests, 1);

    const retried = cache.get();
    assert.equal(requests, 2);
    answers[1]!.resolve({ accessToken: 'after-failure', expiresInSeconds: 3600 });
    assert.equal(await retried, 'after-failure');
    assert.equal(await cache.get(), 'after-failure');
    assert.equal(requests, 2);
  });
});

describe('organizationOfToken', () => {
  it('reads the org_id claim of a JWT, base64url included', () => {
    const token = jwtWith({ org_id: 'org-1', sub: '??>' });
    assert.match(token.split('.')[1]!, /[-_]/, 'the payload uses the base64url alphabet');
    assert.equal(organizationOfToken(token), 'org-1');
    assert.equal(organizationOfToken(jwtWith({ org_id: '0f8e7d6c-5b4a-4392-8170-a1b2c3d4e5f6', client_id: 'c' })), '0f8e7d6c-5b4a-4392-8170-a1b2c3d4e5f6');
  });

  it('is null for a JWT without a string org_id', () => {
    assert.equal(organizationOfToken(jwtWith({ sub: 'client-1' })), null);
    assert.equal(organizationOfToken(jwtWith({ org_id: 42 })), null);
    assert.equal(organizationOfToken(jwtWith(null)), null);
  });

  it('is null for what is not a readable JWT', () => {
    assert.equal(organizationOfToken('opaque-token-without-dots'), null);
    assert.equal(organizationOfToken(''), null);
    assert.equal(organizationOfToken('a.%%%.c'), null);
    assert.equal(organizationOfToken(`a.${Buffer.from('not json').toString('base64url')}.c`), null);
  });

  it('decodes the payload as UTF-8', () => {
    assert.equal(organizationOfToken(jwtWith({ org_id: 'Zürich' })), 'Zürich');
  });
});

describe('readTokenResponse', () => {
  const url = 'https://auth.example.com/oauth/token';

  it('reads access_token and expires_in', () => {
    assert.deepEqual(readTokenResponse({ access_token: 'abc', token_type: 'Bearer', expires_in: 3600 }, url), { accessToken: 'abc', expiresInSeconds: 3600 });
  });

  it('takes an expires_in sent as a numeric string', () => {
    assert.deepEqual(readTokenResponse({ access_token: 'abc', expires_in: '3599' }, url), { accessToken: 'abc', expiresInSeconds: 3599 });
  });

  it('refuses a body without a token or without a positive, numeric expires_in, naming the URL', () => {
    const bodies: unknown[] = [
      { expires_in: 3600 },
      { access_token: '', expires_in: 3600 },
      { access_token: 42, expires_in: 3600 },
      { access_token: 'abc' },
      { access_token: 'abc', expires_in: 0 },
      { access_token: 'abc', expires_in: -60 },
      { access_token: 'abc', expires_in: 'soon' },
      { access_token: 'abc', expires_in: '' },
      { access_token: 'abc', expires_in: '-5' },
      { access_token: 'abc', expires_in: Number.POSITIVE_INFINITY },
      { access_token: 'abc', expires_in: true },
      null,
      '<html>login</html>',
      [],
    ];
    for (const body of bodies) {
      assert.throws(
        () => readTokenResponse(body, url),
        (error: unknown) => {
          assert.ok(error instanceof LedgerReconError);
          assert.equal(error.code, 200);
          assert.equal(error.method, 'POST');
          assert.equal(error.url, url);
          assert.equal(error.message, `the token endpoint ${url} answered 200 without access_token and a positive expires_in; check tokenUrl`);
          return true;
        },
        JSON.stringify(body),
      );
    }
  });
});
