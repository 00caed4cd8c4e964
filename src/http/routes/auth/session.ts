import cookie from '@fastify/cookie';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authErrors } from '../../../errors.ts';
import { PASSWORD_LENGTH_MAX, SESSION_LIFETIME_SECONDS, type SignedIn } from '../../../domain/auth/user-sessions.ts';
import type { Services } from '../../../domain/services.ts';
import { registerJsonBodies } from '../../plugins/json-bodies.ts';
import { Uuid, errorResponses } from '../../schemas/common.ts';

/**
 * Sign-in for people (SPEC §9), under /auth: the web app signs in here, gets a session cookie
 * (HttpOnly, SameSite=Strict, Secure behind HTTPS) and trades it for short-lived access tokens,
 * with which it calls the same /v1/api operations as any client.
 *
 * No cross-site request can act with a session: the cookie is SameSite=Strict, so a browser
 * does not send it from another site, and every writing request here is also refused when its
 * Origin (or Sec-Fetch-Site) says it comes from another site, for browsers that ignore SameSite.
 * The session never authenticates /v1/api itself; only the bearer tokens do.
 */

export const SESSION_COOKIE = 'ledger_recon_session';
const TAGS = ['Sessions'];

const Role = Type.Union([Type.Literal('Administrator'), Type.Literal('Full member'), Type.Literal('View-only'), Type.Literal('Reviewer')]);
const SessionView = Type.Object({
  organizationId: Uuid,
  user: Type.Object({ id: Uuid, email: Type.String(), role: Role }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the session ends; sign in again then.' }),
  tokenUrl: Type.String({ description: "Where the organization's API clients get their tokens." }),
  audience: Type.String({ description: 'The audience their token requests name.' }),
  apiBaseUrl: Type.String({ description: "The organization's API: {base}/transactions and the other operations." }),
});
const Password = Type.String({ minLength: 1, maxLength: PASSWORD_LENGTH_MAX });
const SignInBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Password,
    organizationId: Type.Optional(
      Type.String({ format: 'uuid', description: 'Only when the same email and password belong to several organizations (the answer says so).' }),
    ),
  },
  { additionalProperties: false },
);
const PasswordChangeBody = Type.Object({ currentPassword: Password, newPassword: Password }, { additionalProperties: false });
const InvitationParams = Type.Object({ secret: Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) }, { additionalProperties: false });
const AcceptBody = Type.Object({ password: Password }, { additionalProperties: false });
const AccessTokenView = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds; ask for another before then.' }),
  scope: Type.String(),
  organizationId: Uuid,
});
const NO_CONTENT = Type.Null({ description: 'Done.' });

export async function sessionRoutes(app: FastifyInstance, options: { services: Services }) {
  const { userSessions, config } = options.services;
  const publicOrigin = new URL(config.publicUrl).origin;
  // What the developer page shows besides the organization: how its clients reach the API.
  const sessionView = (session: SignedIn['session']) => ({
    organizationId: session.organizationId,
    user: { id: session.userId, email: session.email, role: session.role },
    expiresAt: new Date(session.expiresAt).toISOString(),
    tokenUrl: `${config.publicUrl}/oauth/token`,
    audience: config.audience,
    apiBaseUrl: `${config.publicUrl}/v1/api/${session.organizationId}`,
  });
  const secure = config.publicUrl.startsWith('https:');
  await app.register(cookie);
  registerJsonBodies(app);

  // The cross-site guard of every writing request (see above).
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    if ((origin !== undefined && origin !== publicOrigin) || fetchSite === 'cross-site') {
      throw authErrors.crossSiteSession(publicOrigin);
    }
  });

  const setSessionCookie = (reply: FastifyReply, signedIn: SignedIn) =>
    reply.setCookie(SESSION_COOKIE, signedIn.sessionSecret, { httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: SESSION_LIFETIME_SECONDS });
  const clearSessionCookie = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path: '/' });
  const secretOf = (request: FastifyRequest) => request.cookies[SESSION_COOKIE];
  const userAgentOf = (request: FastifyRequest) => (typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null);

  app.post<{ Body: Static<typeof SignInBody> }>(
    '/auth/sign-in',
    {
      schema: {
        operationId: 'signIn',
        summary: 'Sign a person in',
        description:
          'Checks the email and password and sets the session cookie. Failed attempts are throttled per 15 minutes: 10 per account from one address, 50 per address for all accounts, and 100 per account from every address together; beyond that the answer is 429 with Retry-After, even for the right password. The answer does not say whether the email exists.',
        tags: TAGS,
        security: [],
        body: SignInBody,
        response: { 200: SessionView, ...errorResponses(409) },
      },
    },
    async (request, reply) => {
      const signedIn = await userSessions.signIn({ ...request.body, address: request.ip, userAgent: userAgentOf(request) });
      setSessionCookie(reply, signedIn);
      return sessionView(signedIn.session);
    },
  );

  app.post(
    '/auth/sign-out',
    {
      schema: {
        operationId: 'signOut',
        summary: 'End the session',
        description: 'Ends the session on the server (its tokens stop working within seconds) and clears the cookie. Succeeds without a session too.',
        tags: TAGS,
        security: [],
        response: { 204: NO_CONTENT },
      },
    },
    async (request, reply) => {
      await userSessions.signOut(secretOf(request));
      clearSessionCookie(reply);
      return reply.code(204).send();
    },
  );

  app.get(
    '/auth/session',
    {
      schema: {
        operationId: 'getSession',
        summary: 'Who is signed in',
        description: '401 when nobody is (or the session ended).',
        tags: TAGS,
        security: [],
        response: { 200: SessionView, ...errorResponses() },
      },
    },
    async (request) => sessionView(await userSessions.requireSession(secretOf(request))),
  );

  app.post(
    '/auth/token',
    {
      schema: {
        operationId: 'getSessionToken',
        summary: 'An access token for the signed-in person',
        description:
          "A bearer token for the /v1/api operations, valid for minutes, with the scopes of the user's role. It stops working when the session ends.",
        tags: TAGS,
        security: [],
        response: { 200: AccessTokenView, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const { token, session } = await userSessions.accessToken(secretOf(request));
      reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
      return {
        access_token: token.accessToken,
        token_type: 'Bearer' as const,
        expires_in: token.expiresInSeconds,
        scope: token.scope,
        organizationId: session.organizationId,
      };
    },
  );

  app.post<{ Body: Static<typeof PasswordChangeBody> }>(
    '/auth/password',
    {
      schema: {
        operationId: 'changePassword',
        summary: "Change the signed-in person's password",
        description:
          'At least 12 characters, not one of the commonly used passwords. Every other session of the person ends; this one goes on. A wrong current password counts as a failed sign-in of the account (the same throttle; 429 with Retry-After beyond it).',
        tags: TAGS,
        security: [],
        body: PasswordChangeBody,
        response: { 204: NO_CONTENT, ...errorResponses() },
      },
    },
    async (request, reply) => {
      await userSessions.changePassword(secretOf(request), { ...request.body, address: request.ip });
      return reply.code(204).send();
    },
  );

  app.get<{ Params: Static<typeof InvitationParams> }>(
    '/auth/invitations/:secret',
    {
      schema: {
        operationId: 'getInvitation',
        summary: 'What an invitation link is for',
        description: 'The email and role it invites; 404 for an unknown link, 409 for a used or expired one (the message says which).',
        tags: TAGS,
        security: [],
        params: InvitationParams,
        response: { 200: Type.Object({ email: Type.String(), role: Role, expiresAt: Type.String({ format: 'date-time' }) }), ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const invitation = await userSessions.describeInvitation(request.params.secret);
      return { email: invitation.email, role: invitation.role, expiresAt: new Date(invitation.expiresAt).toISOString() };
    },
  );

  app.post<{ Params: Static<typeof InvitationParams>; Body: Static<typeof AcceptBody> }>(
    '/auth/invitations/:secret/accept',
    {
      schema: {
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation',
        description: 'Creates the user with the password chosen (at least 12 characters, not a common one) and signs them in.',
        tags: TAGS,
        security: [],
        params: InvitationParams,
        body: AcceptBody,
        response: { 200: SessionView, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const signedIn = await userSessions.acceptInvitation(request.params.secret, {
        password: request.body.password,
        address: request.ip,
        userAgent: userAgentOf(request),
      });
      setSessionCookie(reply, signedIn);
      return sessionView(signedIn.session);
    },
  );
}
