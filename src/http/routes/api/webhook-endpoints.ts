import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { Type } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { DELIVERIES_PAGE_SIZE } from '../../../domain/webhooks/endpoints.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite, sendSecretBearingWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams, readPageSize } from '../../schemas/common.ts';
import {
  CreatedEndpointSchema,
  CreateEndpointBody,
  DeliveriesQuery,
  DeliveryPageSchema,
  DeliveryParams,
  DeliverySchema,
  DeliveryWithAttemptsSchema,
  EndpointListSchema,
  EndpointParams,
  EndpointSchema,
  RotatedSecretSchema,
  UpdateEndpointBody,
} from '../../schemas/webhooks.ts';

const TAGS = ['Events and webhooks'];

/**
 * Webhook endpoints (SPEC §11); Administrator only (manage:credentials), as an endpoint sends the
 * organization's data to an address outside the service. A signing secret is in the answer that
 * makes it and nowhere else, like an API client's secret.
 */
export async function webhookEndpointRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;
  const endpoints = services.webhookEndpoints;
  const scope = Scopes.manageCredentials;

  app.get(
    '/webhook-endpoints',
    {
      config: { scope },
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        description:
          "The organization's endpoints, oldest first, with whether each is enabled and, for one that is failing, since when. Secrets are never listed.",
        tags: TAGS,
        params: OrganizationParams,
        response: { 200: EndpointListSchema, ...errorResponses() },
      },
    },
    async (request) => endpoints.list(request.principal.organizationId),
  );

  app.post(
    '/webhook-endpoints',
    {
      config: { scope },
      schema: {
        operationId: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint',
        description:
          'From now on every event of the chosen types (all by default) is POSTed to the URL as a Standard Webhooks message (webhook-id, webhook-timestamp, ' +
          'webhook-signature: v1,<base64 HMAC-SHA256>), at least once, retried with exponential backoff and jitter for up to 3 days. The answer holds the ' +
          'signing secret, shown this once; a retry with the same Idempotency-Key is a 409 rather than a second endpoint.',
        tags: TAGS,
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: CreateEndpointBody,
        response: { 201: CreatedEndpointSchema, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      // The target is checked before the write's transaction: it may wait on DNS.
      const url = await endpoints.checkUrl(body.url);
      return sendSecretBearingWrite(
        request,
        reply,
        services,
        (transaction) =>
          endpoints.create(
            transaction,
            { organizationId: request.principal.organizationId, actor: request.principal.actor, requestId: request.id },
            { ...body, url },
          ),
        (created) => ({ endpointId: created.id }),
        (kept) =>
          `this Idempotency-Key already created webhook endpoint ${kept.endpointId}; its secret was shown once, in that first answer. ` +
          `If it was lost, rotate it (POST /webhook-endpoints/${kept.endpointId}/rotate-secret)`,
      );
    },
  );

  app.get(
    '/webhook-endpoints/:endpointId',
    {
      config: { scope },
      schema: {
        operationId: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        tags: TAGS,
        params: EndpointParams,
        response: { 200: EndpointSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { endpointId } = request.params;
      return endpoints.get(request.principal.organizationId, endpointId.toLowerCase());
    },
  );

  app.patch(
    '/webhook-endpoints/:endpointId',
    {
      config: { scope },
      schema: {
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint',
        description:
          'Changes what is given: url (checked as on creation), description, eventTypes, enabled. Enabling an endpoint checks its URL again, as on ' +
          'creation: one saved under settings that allowed it (WEBHOOK_ALLOW_PRIVATE_TARGETS) and refused now is a 409, unless a new url comes in the ' +
          'same change. Enabling an endpoint that was disabled for failing clears its failure record; deliveries that failed meanwhile can be sent ' +
          'again with redeliver.',
        tags: TAGS,
        params: EndpointParams,
        headers: IdempotencyKeyHeaders,
        body: UpdateEndpointBody,
        response: { 200: EndpointSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { endpointId } = request.params;
      const body = request.body;
      // Checked before the write's transaction: a URL may wait on DNS.
      const change = await endpoints.checkChange(request.principal.organizationId, endpointId.toLowerCase(), body);
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        endpoints.update(transaction, context, endpointId.toLowerCase(), change),
      );
    },
  );

  app.delete(
    '/webhook-endpoints/:endpointId',
    {
      config: { scope },
      schema: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'Deletes the endpoint and its delivery history; messages not yet delivered are not sent.',
        tags: TAGS,
        params: EndpointParams,
        headers: IdempotencyKeyHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { endpointId } = request.params;
      return sendIdempotentWrite(request, reply, services, 204, async (transaction, context) => {
        await endpoints.remove(transaction, context, endpointId.toLowerCase());
        return null;
      });
    },
  );

  app.post(
    '/webhook-endpoints/:endpointId/rotate-secret',
    {
      config: { scope },
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'Makes a new signing secret, shown in this answer only. For 24 hours every delivery carries two signatures, one per secret, so the receiver can ' +
          'switch to the new secret at any moment without rejecting a message.',
        tags: TAGS,
        params: EndpointParams,
        headers: IdempotencyKeyHeaders,
        response: { 201: RotatedSecretSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { endpointId } = request.params;
      return sendSecretBearingWrite(
        request,
        reply,
        services,
        (transaction) => endpoints.rotateSecret(transaction, request.principal.organizationId, endpointId.toLowerCase()),
        (rotated) => ({ endpointId: rotated.endpointId }),
        (kept) =>
          `this Idempotency-Key already rotated the secret of webhook endpoint ${kept.endpointId}; the new secret was shown once, in that first answer. If it was lost, rotate again`,
      );
    },
  );

  app.post(
    '/webhook-endpoints/:endpointId/test',
    {
      config: { scope },
      schema: {
        operationId: 'sendWebhookTest',
        summary: 'Send a test message',
        description:
          'Queues a message of type webhook.test to the endpoint, signed like any other; answers 202 with its delivery, which shows the outcome when it is sent.',
        tags: TAGS,
        params: EndpointParams,
        headers: IdempotencyKeyHeaders,
        response: { 202: DeliverySchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { endpointId } = request.params;
      return sendIdempotentWrite(request, reply, services, 202, (transaction, context) => endpoints.sendTest(transaction, context, endpointId.toLowerCase()));
    },
  );

  app.get(
    '/webhook-endpoints/:endpointId/deliveries',
    {
      config: { scope },
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'List deliveries',
        description: "The endpoint's deliveries, newest first: status, attempts, the last answer's HTTP status and time, the next attempt of a pending one.",
        tags: TAGS,
        params: EndpointParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryPageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { endpointId } = request.params;
      const query = request.query;
      return endpoints.deliveries(request.principal.organizationId, endpointId.toLowerCase(), {
        status: query.status ?? null,
        cursor: query.cursor ?? null,
        limit: readPageSize(query.limit, DELIVERIES_PAGE_SIZE),
      });
    },
  );

  app.get(
    '/webhook-endpoints/:endpointId/deliveries/:deliveryId',
    {
      config: { scope },
      schema: {
        operationId: 'getWebhookDelivery',
        summary: 'Get a delivery with its attempts',
        tags: TAGS,
        params: DeliveryParams,
        response: { 200: DeliveryWithAttemptsSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { endpointId, deliveryId } = request.params;
      return endpoints.delivery(request.principal.organizationId, endpointId.toLowerCase(), deliveryId.toLowerCase());
    },
  );

  app.post(
    '/webhook-endpoints/:endpointId/deliveries/:deliveryId/redeliver',
    {
      config: { scope },
      schema: {
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again',
        description:
          'Sends a delivery that succeeded or failed again, with the same webhook-id (a receiver that has it already drops it); its retries start afresh. ' +
          'A delivery still pending is a 409.',
        tags: TAGS,
        params: DeliveryParams,
        headers: IdempotencyKeyHeaders,
        response: { 202: DeliverySchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { endpointId, deliveryId } = request.params;
      return sendIdempotentWrite(request, reply, services, 202, (transaction, context) =>
        endpoints.redeliver(transaction, context, endpointId.toLowerCase(), deliveryId.toLowerCase()),
      );
    },
  );
}
