import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dictionary } from '@zxcvbn-ts/language-common';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * People and their sessions (SPEC §9) through the real server: sign-in with the cookie's
 * attributes, access tokens from the session used on the API with the user's role, the
 * cross-site guard, invitations, the password rules, password changes and deactivation ending
 * sessions at once, sign-out, and the sign-in throttle.
 */

/** Sign-ins sent at once by the parallel guessing test, and which of them carries the right password. */
const PARALLEL_ATTEMPTS = 120;
const RIGHT_PASSWORD_AT = 60;

function countStatuses(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

interface Browser {
  cookie: string | null;
}

for (const kind of storeKinds()) {
  describe(`users and sessions (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;

    before(async () => {
      // The loopback proxy is trusted, so X-Forwarded-For stands for people at other addresses.
      server = await startTestServer(kind, { trustProxy: 'loopback' });
      organization = await createTestOrganization(server);
    });
    after(() => server.close());

    /** A request as the web app sends it: same origin, the browser's cookie, JSON. */
    async function send(browser: Browser, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: {
          origin: server.baseUrl,
          ...(browser.cookie ? { cookie: browser.cookie } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const setCookie = response.headers.get('set-cookie');
      if (setCookie) browser.cookie = setCookie.split(';')[0]!.endsWith('=') ? null : setCookie.split(';')[0]!;
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
    }

    async function signIn(email: string, password: string): Promise<Browser> {
      const browser: Browser = { cookie: null };
      const answer = await send(browser, 'POST', '/auth/sign-in', { email, password });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return browser;
    }

    async function tokenOf(browser: Browser): Promise<string> {
      const answer = await send(browser, 'POST', '/auth/token');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.access_token;
    }

    it("signs in with the organization's login: an HttpOnly, SameSite=Strict cookie, and tokens that work on the API with the role", async () => {
      const { email, password } = organization.user!;
      const wrong = await send({ cookie: null }, 'POST', '/auth/sign-in', { email, password: 'not the password' });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.error.message, 'the email or the password is wrong');
      const unknown = await send({ cookie: null }, 'POST', '/auth/sign-in', { email: 'nobody@example.com', password: 'whatever it is' });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error.message, wrong.body.error.message, 'the answer does not tell which emails exist');

      const browser: Browser = { cookie: null };
      const signedIn = await send(browser, 'POST', '/auth/sign-in', { email: email.toUpperCase(), password });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.equal(signedIn.body.organizationId, organization.orgId);
      assert.equal(signedIn.body.user.role, 'Administrator');
      const setCookie = signedIn.headers.get('set-cookie')!;
      assert.match(setCookie, /HttpOnly/);
      assert.match(setCookie, /SameSite=Strict/);
      assert.match(setCookie, /Path=\//);
      assert.doesNotMatch(setCookie, /Secure/, 'plain HTTP: a Secure cookie would never come back');

      const session = await send(browser, 'GET', '/auth/session');
      assert.equal(session.status, 200);
      assert.equal(session.body.user.email, email);
      assert.equal((await send({ cookie: null }, 'GET', '/auth/session')).status, 401);

      const token = await send(browser, 'POST', '/auth/token');
      assert.equal(token.status, 200);
      assert.equal(token.body.token_type, 'Bearer');
      assert.ok(token.body.expires_in <= 300);
      assert.equal(token.headers.get('cache-control'), 'no-store');
      const clients = await api(server, token.body.access_token, 'GET', `/v1/api/${organization.orgId}/clients`);
      assert.equal(clients.status, 200, 'an Administrator user manages credentials');
      const source = await api(server, token.body.access_token, 'POST', `/v1/api/${organization.orgId}/sources`, { name: 'Made by a person' });
      assert.equal(source.status, 201);
      assert.match(source.body.createdBy ?? `user:${email}`, /^user:/);
      const foreign = await createTestOrganization(server);
      assert.equal(
        (await api(server, token.body.access_token, 'GET', `/v1/api/${foreign.orgId}/sources`)).status,
        403,
        'a user token is for its organization only',
      );
    });

    it('refuses every cross-site request that would use a session', async () => {
      const browser = await signIn(organization.user!.email, organization.user!.password);
      const fromElsewhere = await send(browser, 'POST', '/auth/token', undefined, { origin: 'https://attacker.example' });
      assert.equal(fromElsewhere.status, 403);
      assert.match(fromElsewhere.body.error.message, /another site cannot use a session/);
      const crossSite = await send(
        browser,
        'POST',
        '/auth/password',
        { currentPassword: organization.user!.password, newPassword: 'a brand new passphrase' },
        { origin: '', 'sec-fetch-site': 'cross-site' },
      );
      assert.equal(crossSite.status, 403);
      const signOut = await send(browser, 'POST', '/auth/sign-out', undefined, { origin: 'http://evil.test' });
      assert.equal(signOut.status, 403);
      assert.equal((await send(browser, 'GET', '/auth/session')).status, 200, 'the session is untouched');
      // The session cookie alone never authenticates the API.
      const response = await fetch(`${server.baseUrl}/v1/api/${organization.orgId}/sources`, { headers: { cookie: browser.cookie! } });
      assert.equal(response.status, 401);
    });

    it('invites a person, who chooses a password that the rules accept and signs in with the role given', async () => {
      const invited = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/invitations`, {
        email: 'ana@example.com',
        role: 'View-only',
      });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
      const url = new URL(invited.body.invitationUrl);
      assert.equal(url.origin, server.baseUrl);
      const secret = url.pathname.split('/').pop()!;
      const expiresInHours = (Date.parse(invited.body.invitation.expiresAt) - Date.now()) / 3_600_000;
      assert.ok(expiresInHours > 71.9 && expiresInHours <= 72, String(expiresInHours));

      const browser: Browser = { cookie: null };
      const described = await send(browser, 'GET', `/auth/invitations/${secret}`);
      assert.deepEqual([described.body.email, described.body.role], ['ana@example.com', 'View-only']);
      const short = await send(browser, 'POST', `/auth/invitations/${secret}/accept`, { password: 'short' });
      assert.equal(short.status, 400);
      assert.equal(short.body.error.details[0].path, '/password');
      assert.match(short.body.error.details[0].message, /at least 12 characters/);
      const common = (dictionary.passwords as string[]).find((password) => password.length >= 12)!;
      const tooCommon = await send(browser, 'POST', `/auth/invitations/${secret}/accept`, { password: common });
      assert.equal(tooCommon.status, 400);
      assert.match(tooCommon.body.error.details[0].message, /most common passwords/);
      const accepted = await send(browser, 'POST', `/auth/invitations/${secret}/accept`, { password: 'ledger lines at dawn' });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      assert.equal(accepted.body.user.role, 'View-only');
      const token = await tokenOf(browser);
      assert.equal((await api(server, token, 'GET', `/v1/api/${organization.orgId}/sources`)).status, 200);
      assert.equal((await api(server, token, 'POST', `/v1/api/${organization.orgId}/sources`, { name: 'not allowed' })).status, 403, 'View-only reads only');
      assert.equal((await api(server, token, 'GET', `/v1/api/${organization.orgId}/users`)).status, 403);

      const again = await send({ cookie: null }, 'POST', `/auth/invitations/${secret}/accept`, { password: 'ledger lines at dawn' });
      assert.equal(again.status, 409);
      assert.match(again.body.error.message, /used already/);
      assert.equal((await send({ cookie: null }, 'GET', '/auth/invitations/notavalidinvitationsecretatall')).status, 404);
      const duplicate = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/invitations`, {
        email: 'ANA@example.com',
        role: 'Full member',
      });
      assert.equal(duplicate.status, 409);

      const listed = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/users`);
      assert.deepEqual(
        listed.body.users.map((user: any) => [user.email, user.role, user.active]).sort(),
        [
          ['ana@example.com', 'View-only', true],
          [organization.user!.email, 'Administrator', true],
        ].sort(),
      );
    });

    it('a password change ends the other sessions and their tokens; deactivation ends all at once; the last Administrator stays', async () => {
      const invited = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/invitations`, {
        email: 'ben@example.com',
        role: 'Full member',
      });
      const secret = new URL(invited.body.invitationUrl).pathname.split('/').pop()!;
      const first: Browser = { cookie: null };
      assert.equal((await send(first, 'POST', `/auth/invitations/${secret}/accept`, { password: 'first passphrase ok' })).status, 200);
      const second = await signIn('ben@example.com', 'first passphrase ok');
      const secondToken = await tokenOf(second);

      const wrongCurrent = await send(first, 'POST', '/auth/password', { currentPassword: 'not it at all', newPassword: 'second passphrase ok' });
      assert.equal(wrongCurrent.status, 400);
      assert.equal(wrongCurrent.body.error.details[0].path, '/currentPassword');
      assert.equal((await send(first, 'POST', '/auth/password', { currentPassword: 'first passphrase ok', newPassword: 'second passphrase ok' })).status, 204);
      assert.equal((await send(first, 'GET', '/auth/session')).status, 200, 'the session that changed it goes on');
      assert.equal((await send(second, 'GET', '/auth/session')).status, 401, 'the other session ended');
      assert.equal((await api(server, secondToken, 'GET', `/v1/api/${organization.orgId}/sources`)).status, 401, 'and its token with it');
      assert.equal((await send({ cookie: null }, 'POST', '/auth/sign-in', { email: 'ben@example.com', password: 'first passphrase ok' })).status, 401);
      const third = await signIn('ben@example.com', 'second passphrase ok');
      const thirdToken = await tokenOf(third);

      const users = (await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/users`)).body.users;
      const ben = users.find((user: any) => user.email === 'ben@example.com');
      const deactivated = await api(server, organization.token, 'PATCH', `/v1/api/${organization.orgId}/users/${ben.id}`, { active: false });
      assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
      assert.equal(deactivated.body.active, false);
      const refused = await api(server, thirdToken, 'GET', `/v1/api/${organization.orgId}/sources`);
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate') ?? '', /session of this token has ended/);
      assert.equal((await send(first, 'GET', '/auth/session')).status, 401);
      assert.equal((await send({ cookie: null }, 'POST', '/auth/sign-in', { email: 'ben@example.com', password: 'second passphrase ok' })).status, 401);

      const admin = users.find((user: any) => user.role === 'Administrator');
      const lastAdmin = await api(server, organization.token, 'PATCH', `/v1/api/${organization.orgId}/users/${admin.id}`, { role: 'View-only' });
      assert.equal(lastAdmin.status, 409);
      assert.match(lastAdmin.body.error.message, /last active Administrator/);
      const events = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/audit-events`);
      const actions = events.body.events.map((event: any) => event.action);
      for (const action of ['user.invited', 'user.joined', 'user.password_changed', 'user.updated'])
        assert.ok(actions.includes(action), `${action} in ${actions}`);
    });

    it('signs out on the server, and throttles failed sign-ins per account with Retry-After', async () => {
      const browser = await signIn(organization.user!.email, organization.user!.password);
      const token = await tokenOf(browser);
      assert.equal((await send(browser, 'POST', '/auth/sign-out')).status, 204);
      assert.equal(browser.cookie, null, 'the cookie is cleared');
      assert.equal((await api(server, token, 'GET', `/v1/api/${organization.orgId}/sources`)).status, 401);

      const throttled = await createTestOrganization(server);
      let last = { status: 0, headers: new Headers(), body: null as any };
      for (let attempt = 0; attempt < 10; attempt += 1) {
        last = await send({ cookie: null }, 'POST', '/auth/sign-in', { email: throttled.user!.email, password: `wrong guess ${attempt}` });
        assert.equal(last.status, 401);
      }
      const blocked = await send({ cookie: null }, 'POST', '/auth/sign-in', throttled.user!);
      assert.equal(blocked.status, 429, 'even the right password waits once the account is throttled');
      assert.ok(Number(blocked.headers.get('retry-after')) >= 1);
      assert.match(blocked.body.error.message, /too many failed sign-ins/);
    });

    it('throttles guesses of the current password at a password change as it throttles sign-ins', async () => {
      const target = await createTestOrganization(server);
      const from = { 'x-forwarded-for': '203.0.113.77' };
      const browser = await signIn(target.user!.email, target.user!.password);
      const change = (currentPassword: string) => send(browser, 'POST', '/auth/password', { currentPassword, newPassword: 'a brand new passphrase' }, from);
      const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => change(`wrong guess ${index}`)));
      const statuses = countStatuses(answers);
      assert.deepEqual(Object.keys(statuses).sort(), ['400', '429'], JSON.stringify(statuses));
      assert.ok((statuses[400] ?? 0) <= 10, `current passwords compared: ${JSON.stringify(statuses)}`);
      const right = await change(target.user!.password);
      assert.equal(right.status, 429, 'even the right current password waits once the account is throttled from this address');
      assert.match(right.body.error.message, /too many failed sign-ins/);
      assert.equal((await send({ cookie: null }, 'POST', '/auth/sign-in', target.user!, from)).status, 429, 'the guesses count as failed sign-ins');
    });

    it('compares at most the limit of passwords when guesses arrive at once, and the right one hidden among them does not get in once throttled', async () => {
      const target = await createTestOrganization(server);
      const from = { 'x-forwarded-for': '203.0.113.50' };
      const guess = (index: number) =>
        send(
          { cookie: null },
          'POST',
          '/auth/sign-in',
          { email: target.user!.email, password: index === RIGHT_PASSWORD_AT ? target.user!.password : `wrong guess ${index}` },
          from,
        );
      const answers = await Promise.all(Array.from({ length: PARALLEL_ATTEMPTS }, (_, index) => guess(index)));
      const statuses = countStatuses(answers);
      for (const status of Object.keys(statuses)) assert.ok(['200', '401', '429'].includes(status), JSON.stringify(statuses));
      // Only attempts that were compared are answered other than 429.
      assert.ok(PARALLEL_ATTEMPTS - (statuses[429] ?? 0) <= 10, `passwords compared: ${JSON.stringify(statuses)}`);
      const again = await Promise.all(Array.from({ length: PARALLEL_ATTEMPTS }, (_, index) => guess(index)));
      assert.deepEqual(countStatuses(again), { 429: PARALLEL_ATTEMPTS });
    });

    it('lets nobody lock a person out from one address: failures count per account and address', async () => {
      const target = await createTestOrganization(server);
      const attacker = { 'x-forwarded-for': '203.0.113.66' };
      const failures = await Promise.all(
        Array.from({ length: 10 }, (_, attempt) =>
          send({ cookie: null }, 'POST', '/auth/sign-in', { email: target.user!.email, password: `wrong guess ${attempt}` }, attacker),
        ),
      );
      assert.deepEqual(countStatuses(failures), { 401: 10 });
      // The attacker's address is throttled for this account, even with the right password...
      const blocked = await send({ cookie: null }, 'POST', '/auth/sign-in', target.user!, attacker);
      assert.equal(blocked.status, 429, JSON.stringify(blocked.body));
      // ...and rotating addresses inside one IPv6 /64 does not buy more guesses...
      const v6 = (index: number) => ({ 'x-forwarded-for': `2001:db8:66:1::${index + 1}` });
      for (let attempt = 0; attempt < 10; attempt += 1) {
        assert.equal(
          (await send({ cookie: null }, 'POST', '/auth/sign-in', { email: target.user!.email, password: `v6 guess ${attempt}` }, v6(attempt))).status,
          401,
        );
      }
      assert.equal((await send({ cookie: null }, 'POST', '/auth/sign-in', target.user!, v6(99))).status, 429);
      // ...while the person, from their own address, signs in at once.
      const browser: Browser = { cookie: null };
      const signedIn = await send(browser, 'POST', '/auth/sign-in', target.user!, { 'x-forwarded-for': '198.51.100.7' });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.ok(browser.cookie);
    });

    it('stops a guessing attack spread over many addresses at the per-account ceiling', async () => {
      const target = await createTestOrganization(server);
      const spread = (from: number, to: number) =>
        Promise.all(
          Array.from({ length: (to - from) * 10 }, (_, attempt) =>
            send(
              { cookie: null },
              'POST',
              '/auth/sign-in',
              { email: target.user!.email, password: `spread guess ${attempt}` },
              { 'x-forwarded-for': `192.0.2.${from + Math.floor(attempt / 10) + 1}` },
            ),
          ),
        );
      // Nine addresses, each at its own limit: far more failures than one address may make, and
      // the person still signs in from their own.
      assert.deepEqual(countStatuses(await spread(0, 9)), { 401: 90 });
      const stillIn = await send({ cookie: null }, 'POST', '/auth/sign-in', target.user!, { 'x-forwarded-for': '198.51.100.8' });
      assert.equal(stillIn.status, 200, JSON.stringify(stillIn.body));
      // A tenth address brings the account to its ceiling of one hundred: then nobody gets in.
      assert.deepEqual(countStatuses(await spread(9, 10)), { 401: 10 });
      const stopped = await send({ cookie: null }, 'POST', '/auth/sign-in', target.user!, { 'x-forwarded-for': '198.51.100.9' });
      assert.equal(stopped.status, 429, JSON.stringify(stopped.body));
      assert.ok(Number(stopped.headers.get('retry-after')) >= 1);
      // Another person is not affected.
      const other = await createTestOrganization(server);
      assert.equal((await send({ cookie: null }, 'POST', '/auth/sign-in', other.user!, { 'x-forwarded-for': '198.51.100.9' })).status, 200);
    });
  });
}
