import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ACTIVE_CLIENTS_LIMIT, ACTIVE_SECRETS_LIMIT, CLIENT_LISTING_LIMIT } from '../../../domain/auth/api-clients.ts';
import { ROLES, Scopes } from '../../../domain/auth/roles.ts';
import { CLIENT_ID_PATTERN } from '../../../domain/auth/secrets.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendSecretBearingWrite } from '../../idempotency.ts';
import { OrganizationParams, Uuid, errorResponses } from '../../schemas/common.ts';

const TAGS = ['API clients'];

const Role = Type.Union(
  ROLES.map((role) => Type.Literal(role)),
  { description: 'Administrator: everything, including credentials; Full member: read and write data; View-only: read.' },
);
const ClientId = Type.String({ pattern: CLIENT_ID_PATTERN, description: 'The client_id of an API client.' });
const Timestamp = Type.String({ format: 'date-time' });

const ClientParams = Type.Object({ orgId: Uuid, clientId: ClientId }, { additionalProperties: false });
const SecretParams = Type.Object(
  { orgId: Uuid, clientId: ClientId, secretId: Type.String({ format: 'uuid', description: 'The id of a secret, as listed.' }) },
  { additionalProperties: false },
);

const ListQuery = Type.Object(
  {
    includeRevoked: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'Also list revoked clients (default false).' })),
  },
  { additionalProperties: false },
);

const CreateClientBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'What the client is for, e.g. "ERP export".' }),
    role: Role,
  },
  { additionalProperties: false },
);

const ClientSummary = Type.Object({
  clientId: ClientId,
  name: Type.String(),
  role: Role,
  createdAt: Timestamp,
  createdBy: Type.String({ description: 'Who created the client.' }),
  revokedAt: Type.Union([Timestamp, Type.Null()]),
  lastUsedAt: Type.Union([Timestamp, Type.Null()], { description: 'When the client last got a token, to the minute; null when it never did.' }),
  secrets: Type.Array(
    Type.Object({
      secretId: Type.String({ format: 'uuid' }),
      hint: Type.String({ description: 'The last characters of the secret, to tell secrets apart.' }),
      createdAt: Timestamp,
    }),
    { description: `The active secrets (at most ${ACTIVE_SECRETS_LIMIT}); the secrets themselves are never shown again.` },
  ),
});

const CreatedClient = Type.Object({
  clientId: ClientId,
  clientSecret: Type.String({ description: 'Shown in this answer only; store it now.' }),
  name: Type.String(),
  role: Role,
  createdAt: Timestamp,
});

const CreatedSecret = Type.Object({
  clientId: ClientId,
  secretId: Type.String({ format: 'uuid' }),
  clientSecret: Type.String({ description: 'Shown in this answer only; store it now.' }),
  createdAt: Timestamp,
});

const NO_CONTENT = Type.Null({ description: 'Done.' });

/**
 * The organization's API clients and their secrets; Administrator only (manage:credentials).
 * A secret is in the answer that creates it and nowhere else, so a retry of a creating operation
 * with the same Idempotency-Key is refused with a 409 naming what the first request created,
 * rather than replayed (which would mean storing the secret) or run again (which would create a
 * second credential). The two revoking operations are idempotent by themselves: revoking again
 * succeeds.
 */
export async function clientRoutes(app: FastifyInstance, options: { services: Services }) {
  const { apiClients } = options.services;
  const scope = Scopes.manageCredentials;

  app.get<{ Params: Static<typeof OrganizationParams>; Querystring: Static<typeof ListQuery> }>(
    '/clients',
    {
      config: { scope },
      schema: {
        operationId: 'listClients',
        summary: 'List the API clients of the organization',
        description: `Active clients, oldest first (at most ${CLIENT_LISTING_LIMIT}), with the ids and hints of their active secrets. Secrets are never listed.`,
        tags: TAGS,
        params: OrganizationParams,
        querystring: ListQuery,
        response: { 200: Type.Array(ClientSummary), ...errorResponses() },
      },
    },
    async (request) => apiClients.list(request.principal.organizationId, { includeRevoked: request.query.includeRevoked === 'true' }),
  );

  app.post<{ Params: Static<typeof OrganizationParams>; Body: Static<typeof CreateClientBody> }>(
    '/clients',
    {
      config: { scope },
      schema: {
        operationId: 'createClient',
        summary: 'Create an API client',
        description: `Creates a client with one secret, which this answer shows once. At most ${ACTIVE_CLIENTS_LIMIT} active clients per organization.`,
        tags: TAGS,
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: CreateClientBody,
        response: { 201: CreatedClient, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) =>
      sendSecretBearingWrite(
        request,
        reply,
        options.services,
        (transaction) =>
          apiClients.create(transaction, {
            organizationId: request.principal.organizationId,
            name: request.body.name,
            role: request.body.role,
            createdBy: request.principal.actor,
            requestId: request.id,
          }),
        (created) => ({ clientId: created.clientId }),
        (kept) =>
          `this Idempotency-Key already created API client ${kept.clientId}; its secret was shown once, in that first answer. ` +
          `If the secret was lost, add one with POST /clients/${kept.clientId}/secrets (or revoke the client and create another)`,
      ),
  );

  app.delete<{ Params: Static<typeof ClientParams> }>(
    '/clients/:clientId',
    {
      config: { scope },
      schema: {
        operationId: 'revokeClient',
        summary: 'Revoke an API client',
        description:
          'Its secrets stop working at once and its access tokens within seconds. Revoking an already revoked client succeeds. ' +
          'A client may revoke itself: its own token then stops working too.',
        tags: TAGS,
        params: ClientParams,
        response: { 204: NO_CONTENT, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      // An Administrator client may revoke itself, including the last Administrator client of
      // the organization: that is how a leaked credential is cut off by itself, and the
      // organization's Administrator users can still create new clients.
      await apiClients.revoke(request.principal.organizationId, request.params.clientId);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof ClientParams> }>(
    '/clients/:clientId/secrets',
    {
      config: { scope },
      schema: {
        operationId: 'createClientSecret',
        summary: 'Add a secret to an API client',
        description: `For rotation with overlap: a client holds at most ${ACTIVE_SECRETS_LIMIT} active secrets, which both work; revoke the old one once every caller uses the new one. The secret is shown once.`,
        tags: TAGS,
        params: ClientParams,
        headers: IdempotencyKeyHeaders,
        response: { 201: CreatedSecret, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) =>
      sendSecretBearingWrite(
        request,
        reply,
        options.services,
        (transaction) => apiClients.addSecret(transaction, request.principal.organizationId, request.params.clientId),
        (created) => ({ clientId: created.clientId, secretId: created.secretId }),
        (kept) =>
          `this Idempotency-Key already added secret ${kept.secretId} to API client ${kept.clientId}; the secret was shown once, in that first answer. ` +
          `If it was lost, revoke it (DELETE /clients/${kept.clientId}/secrets/${kept.secretId}) and add another`,
      ),
  );

  app.delete<{ Params: Static<typeof SecretParams> }>(
    '/clients/:clientId/secrets/:secretId',
    {
      config: { scope },
      schema: {
        operationId: 'revokeClientSecret',
        summary: 'Revoke one secret of an API client',
        description:
          "The client's other secret keeps working; tokens already issued stay valid until they expire. Revoking an already revoked secret succeeds.",
        tags: TAGS,
        params: SecretParams,
        response: { 204: NO_CONTENT, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await apiClients.revokeSecret(request.principal.organizationId, request.params.clientId, request.params.secretId);
      return reply.code(204).send();
    },
  );
}
