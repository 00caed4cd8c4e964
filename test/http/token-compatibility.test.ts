import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuthApiError, AuthenticationClient } from 'auth0';
import * as oauth from 'oauth4webapi';
import * as openidClient from 'openid-client';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The token endpoint driven by the client libraries its callers use, against the real listening
 * server: openid-client (discovery and the grant), oauth4webapi (the grant and RFC 9068
 * validation against our metadata and JWKS) and the auth0 SDK (the published service is an
 * Auth0 tenant, so its SDK must work unchanged).
 */
for (const kind of storeKinds()) {
  describe(`token endpoint compatibility (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let audience: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      audience = server.config.audience;
    });
    after(async () => server.close());

    /** The token works on the API: the last word on whether a library got a usable token. */
    async function assertUsable(accessToken: string) {
      const answer = await api(server, accessToken, 'GET', `/v1/api/${organization.orgId}/clients`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }

    describe('openid-client', () => {
      // Discovery by RFC 8414 ("oauth2"): the service is an OAuth authorization server, not an
      // OpenID provider. Plain http is allowed for the test server only.
      const discover = (authentication: openidClient.ClientAuth) =>
        openidClient.discovery(new URL(server.baseUrl), organization.clientId, undefined, authentication, {
          algorithm: 'oauth2',
          execute: [openidClient.allowInsecureRequests],
        });

      it('discovers the issuer and obtains a token with client_secret_post', async () => {
        const configuration = await discover(openidClient.ClientSecretPost(organization.clientSecret));
        const metadata = configuration.serverMetadata();
        assert.equal(metadata.issuer, `${server.baseUrl}/`);
        assert.equal(metadata.token_endpoint, `${server.baseUrl}/oauth/token`);
        const tokens = await openidClient.clientCredentialsGrant(configuration, { audience });
        assert.equal(tokens.token_type.toLowerCase(), 'bearer');
        assert.equal(tokens.expires_in, 10800);
        // expiresIn() counts down from the moment the answer arrived.
        const remaining = tokens.expiresIn()!;
        assert.ok(remaining > 10800 - 30 && remaining <= 10800, `expiresIn() ${remaining}`);
        assert.equal(tokens.scope, 'read:data write:data manage:credentials');
        await assertUsable(tokens.access_token);
      });

      it('obtains a token with client_secret_basic', async () => {
        const configuration = await discover(openidClient.ClientSecretBasic(organization.clientSecret));
        const tokens = await openidClient.clientCredentialsGrant(configuration, { audience });
        await assertUsable(tokens.access_token);
      });

      it('surfaces our OAuth errors as the library expects them', async () => {
        const configuration = await discover(openidClient.ClientSecretPost(organization.clientSecret));
        await assert.rejects(openidClient.clientCredentialsGrant(configuration, { audience: 'https://elsewhere.example.com' }), (error: unknown) => {
          assert.ok(error instanceof openidClient.ResponseBodyError, String(error));
          assert.equal(error.error, 'access_denied');
          assert.equal(error.status, 403);
          return true;
        });
        const wrong = await discover(openidClient.ClientSecretPost(`${organization.clientSecret}x`));
        await assert.rejects(openidClient.clientCredentialsGrant(wrong, { audience }), (error: unknown) => {
          assert.ok(error instanceof openidClient.ResponseBodyError, String(error));
          assert.equal(error.error, 'invalid_client');
          assert.equal(error.status, 401);
          return true;
        });
      });
    });

    describe('oauth4webapi', () => {
      const insecure = { [oauth.allowInsecureRequests]: true };
      let authorizationServer: oauth.AuthorizationServer;

      before(async () => {
        const issuer = new URL(`${server.baseUrl}/`);
        const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure });
        authorizationServer = await oauth.processDiscoveryResponse(issuer, response);
      });

      for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
        it(`obtains a token (${method}) and validates it as an RFC 9068 access token`, async () => {
          const client: oauth.Client = { client_id: organization.clientId };
          const authentication =
            method === 'client_secret_basic' ? oauth.ClientSecretBasic(organization.clientSecret) : oauth.ClientSecretPost(organization.clientSecret);
          const response = await oauth.clientCredentialsGrantRequest(authorizationServer, client, authentication, new URLSearchParams({ audience }), insecure);
          const result = await oauth.processClientCredentialsResponse(authorizationServer, client, response);
          assert.equal(result.token_type, 'bearer');
          assert.equal(result.expires_in, 10800);

          const request = new Request(`${server.baseUrl}/v1/api/${organization.orgId}/clients`, {
            headers: { authorization: `Bearer ${result.access_token}` },
          });
          const claims = await oauth.validateJwtAccessToken(authorizationServer, request, audience, insecure);
          assert.equal(claims.iss, `${server.baseUrl}/`);
          assert.equal(claims.client_id, organization.clientId);
          assert.equal(claims.sub, `${organization.clientId}@clients`);
          assert.equal(claims.aud, audience);
          assert.equal(claims.org_id, organization.orgId);
          await assertUsable(result.access_token);
        });
      }

      it('reports a wrong secret as invalid_client, with the Basic challenge when Basic was used', async () => {
        const client: oauth.Client = { client_id: organization.clientId };
        const request = (authentication: oauth.ClientAuth) =>
          oauth.clientCredentialsGrantRequest(authorizationServer, client, authentication, new URLSearchParams({ audience }), insecure);
        // With client_secret_post there is no challenge, and the library reports the error body.
        await assert.rejects(
          oauth.processClientCredentialsResponse(authorizationServer, client, await request(oauth.ClientSecretPost('lrs_not-the-secret'))),
          (error: unknown) => {
            assert.ok(error instanceof oauth.ResponseBodyError, String(error));
            assert.equal(error.error, 'invalid_client');
            assert.equal(error.status, 401);
            return true;
          },
        );
        // With client_secret_basic the 401 carries WWW-Authenticate: Basic (RFC 6749 §5.2), which
        // the library reports as a challenge, keeping the response with our error body.
        const challenged = await oauth
          .processClientCredentialsResponse(authorizationServer, client, await request(oauth.ClientSecretBasic('lrs_not-the-secret')))
          .then(
            () => assert.fail('a wrong secret was accepted'),
            (error: unknown) => error,
          );
        assert.ok(challenged instanceof oauth.WWWAuthenticateChallengeError, String(challenged));
        assert.equal(challenged.status, 401);
        assert.equal(challenged.cause[0]?.scheme, 'basic');
        assert.ok(challenged.cause[0]?.parameters.realm);
        assert.equal(((await challenged.response.json()) as { error: string }).error, 'invalid_client');
      });
    });

    describe('auth0 SDK', () => {
      /**
       * The SDK builds its URLs as https://{domain}. Its own `fetch` option is the documented way
       * to bring a transport; the one here sends the SDK's requests, unchanged, to the plain-http
       * test server. Everything else (body, headers, parsing of answers and errors) is the SDK's.
       */
      const authenticationClient = (clientSecret: string) => {
        const { host } = new URL(server.baseUrl);
        return new AuthenticationClient({
          domain: host,
          clientId: organization.clientId,
          clientSecret,
          fetch: (url, init) => fetch(String(url).replace(/^https:\/\//, 'http://'), init),
        });
      };

      it('obtains a token with oauth.clientCredentialsGrant({audience})', async () => {
        const { data, status } = await authenticationClient(organization.clientSecret).oauth.clientCredentialsGrant({ audience });
        assert.equal(status, 200);
        assert.equal(data.token_type, 'Bearer');
        assert.equal(data.expires_in, 10800);
        await assertUsable(data.access_token);
      });

      it('raises AuthApiError with our error for a wrong secret', async () => {
        await assert.rejects(authenticationClient('lrs_wrong').oauth.clientCredentialsGrant({ audience }), (error: unknown) => {
          assert.ok(error instanceof AuthApiError, String(error));
          assert.equal(error.error, 'invalid_client');
          assert.equal(error.statusCode, 401);
          return true;
        });
      });
    });
  });
}
