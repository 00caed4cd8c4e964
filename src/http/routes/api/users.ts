import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { OrganizationParams, errorResponses } from '../../schemas/common.ts';
import { Invitation, isoTimeOrNull, User, UserChange, UserParams } from '../../schemas/users.ts';

const TAGS = ['Users'];

/** The people of an organization and their pending invitations; Administrators only (manage:credentials). */
export async function userRoutes(app: FastifyInstance, options: { services: Services }) {
  const { userSessions } = options.services;
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
        users: users.map((user) => ({ ...user, createdAt: isoTimeOrNull(user.createdAt)!, lastLoginAt: isoTimeOrNull(user.lastLoginAt) })),
        invitations: invitations.map((invitation) => ({
          ...invitation,
          createdAt: isoTimeOrNull(invitation.createdAt)!,
          expiresAt: isoTimeOrNull(invitation.expiresAt)!,
        })),
      };
    },
  );
}

/**
 * One person of the organization: changing their role, or deactivating them. index.ts registers
 * it after /invitations, so that the paths of the OpenAPI document keep their order.
 */
export async function userByIdRoutes(app: FastifyInstance, options: { services: Services }) {
  const { userSessions } = options.services;
  const scope = Scopes.manageCredentials;

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
      return { ...user, createdAt: isoTimeOrNull(user.createdAt)!, lastLoginAt: isoTimeOrNull(user.lastLoginAt) };
    },
  );
}
