import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendSecretBearingWrite } from '../../idempotency.ts';
import { OrganizationParams, errorResponses } from '../../schemas/common.ts';
import { Invitation, InviteBody, isoTimeOrNull } from '../../schemas/users.ts';

const TAGS = ['Users'];

/** Inviting a person: the link, shown once, with which they choose a password; Administrators only. */
export async function invitationRoutes(app: FastifyInstance, options: { services: Services }) {
  const { userSessions, config } = options.services;
  const scope = Scopes.manageCredentials;

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
        response: {
          201: Type.Object({ invitation: Invitation, invitationUrl: Type.String({ description: 'Shown in this answer only.' }) }),
          ...errorResponses(409, 422),
        },
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
            invitation: { ...invitation, createdAt: isoTimeOrNull(invitation.createdAt)!, expiresAt: isoTimeOrNull(invitation.expiresAt)! },
            invitationUrl: `${config.publicUrl}/invitations/${secret}`,
          };
        },
        (created) => ({ invitationId: created.invitation.id }),
        (kept) =>
          `this Idempotency-Key already created invitation ${kept.invitationId}; its link was shown once, in that first answer. If it was lost, invite the person again`,
      ),
  );
}
