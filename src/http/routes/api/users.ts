import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ROLES, Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendSecretBearingWrite } from '../../idempotency.ts';
import { OrganizationParams, Uuid, errorResponses } from '../../schemas/common.ts';

const TAGS = ['Users'];
const Role = Type.Union(
  ROLES.map((role) => Type.Literal(role)),
  { description: 'Administrator: everything, including users and credentials; Full member: read and write data; View-only: read.' },
);
const Timestamp = Type.String({ format: 'date-time' });
const User = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: Role,
  active: Type.Boolean({ description: 'False once deactivated: the user cannot sign in and their sessions have ended.' }),
  createdAt: Timestamp,
  lastLoginAt: Type.Union([Timestamp, Type.Null()]),
});
const Invitation = Type.Object({ id: Uuid, email: Type.String(), role: Role, createdAt: Timestamp, createdBy: Type.String(), expiresAt: Timestamp });
const UserParams = Type.Object({ orgId: Uuid, userId: Uuid }, { additionalProperties: false });
const InviteBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 320 }), role: Role }, { additionalProperties: false });
const UserChange = Type.Object(
  {
    role: Type.Optional(Role),
    active: Type.Optional(Type.Boolean({ description: 'false deactivates the user (their sessions end at once); true lets them sign in again.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

function iso(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** The people of an organization and their invitations; Administrators only (manage:credentials). */
export async function userRoutes(app: FastifyInstance, options: { services: Services }) {
  const { userSessions, config } = options.services;
  const scope = Scopes.manageCredentials;

  app.get<{ Params: Static<typeof OrganizationParams> }>(
    '/users',
    {
      config: { scope },
      schema: {
        operationId: 'listUsers',
        summary: 'List the users and open invitations',
        description: 'Users oldest first, deactivated ones included; invitations not yet accepted and not expired.',
        tags: TAGS,
        params: OrganizationParams,
        response: { 200: Type.Object({ users: Type.Array(User), invitations: Type.Array(Invitation) }), ...errorResponses() },
      },
    },
    async (request) => {
      const { users, invitations } = await userSessions.listUsers(request.principal.organizationId);
      return {
        users: users.map((user) => ({ ...user, createdAt: iso(user.createdAt)!, lastLoginAt: iso(user.lastLoginAt) })),
        invitations: invitations.map((invitation) => ({ ...invitation, createdAt: iso(invitation.createdAt)!, expiresAt: iso(invitation.expiresAt)! })),
      };
    },
  );

  app.post<{ Params: Static<typeof OrganizationParams>; Body: Static<typeof InviteBody> }>(
    '/invitations',
    {
      config: { scope },
      schema: {
        operationId: 'inviteUser',
        summary: 'Invite a person',
        description: 'Answers the invitation link, valid for 72 hours, shown once: send it to the person, who chooses a password there.',
        tags: TAGS,
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: InviteBody,
        response: { 201: Type.Object({ invitation: Invitation, invitationUrl: Type.String({ description: 'Shown in this answer only.' }) }), ...errorResponses(409, 422) },
      },
    },
    async (request, reply) =>
      sendSecretBearingWrite(
        request,
        reply,
        options.services,
        async (transaction) => {
          const { invitation, secret } = await userSessions.invite(
            transaction,
            { organizationId: request.principal.organizationId, actor: request.principal.actor, requestId: request.id },
            { email: request.body.email, role: request.body.role },
          );
          return {
            invitation: { ...invitation, createdAt: iso(invitation.createdAt)!, expiresAt: iso(invitation.expiresAt)! },
            invitationUrl: `${config.publicUrl}/invitations/${secret}`,
          };
        },
        (created) => ({ invitationId: created.invitation.id }),
        (kept) => `this Idempotency-Key already created invitation ${kept.invitationId}; its link was shown once, in that first answer. If it was lost, invite the person again`,
      ),
  );

  app.patch<{ Params: Static<typeof UserParams>; Body: Static<typeof UserChange> }>(
    '/users/:userId',
    {
      config: { scope },
      schema: {
        operationId: 'updateUser',
        summary: "Change a user's role, or deactivate them",
        description: 'Deactivation ends their sessions at once. The last active Administrator cannot be demoted or deactivated (409).',
        tags: TAGS,
        params: UserParams,
        body: UserChange,
        response: { 200: User, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const user = await userSessions.updateUser(
        { organizationId: request.principal.organizationId, actor: request.principal.actor, requestId: request.id },
        request.params.userId,
        request.body,
      );
      return { ...user, createdAt: iso(user.createdAt)!, lastLoginAt: iso(user.lastLoginAt) };
    },
  );
}
