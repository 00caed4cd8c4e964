import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { typedRoutes } from '../../type-provider.ts';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams } from '../../schemas/common.ts';
import {
  ConnectionListSchema,
  ConnectionParams,
  ConnectionSchema,
  ConnectionTestSchema,
  CreateConnectionBody,
  CreatePickupBody,
  PickupListSchema,
  PickupParams,
  PickupRunListSchema,
  PickupRunParams,
  PickupRunSchema,
  PickupSchema,
  UpdateConnectionBody,
  UpdatePickupBody,
} from '../../schemas/connections.ts';

const TAGS = ['Connections'];

/**
 * Connections and their pickups (docs/CONNECTIONS.md): files that arrive on their own, from an
 * SFTP server or a folder. Administrator only (manage:credentials): a connection holds
 * credentials to a server outside the service.
 */
export async function connectionRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;
  const connections = services.connections;
  const scope = Scopes.manageCredentials;

  app.get(
    '/connections',
    {
      config: { scope },
      schema: {
        operationId: 'listConnections',
        summary: 'List connections',
        description: "The organization's connections, oldest first, with how their last runs went. Secrets are never answered.",
        tags: TAGS,
        params: OrganizationParams,
        response: { 200: ConnectionListSchema, ...errorResponses() },
      },
    },
    async (request) => connections.list(request.principal.organizationId),
  );

  app.post(
    '/connections',
    {
      config: { scope },
      schema: {
        operationId: 'createConnection',
        summary: 'Create a connection',
        description:
          'An SFTP server (host, port, username, and a key the service generates, a key sent, or a password) or a folder under CONNECTOR_FOLDER_ROOT. ' +
          "The secret is sealed (AES-256-GCM) and never answered; a generated key's public half is (publicKey). An SFTP connection is used only once " +
          "its server's host key is confirmed: test it, check the fingerprint with the bank, and confirm it with PATCH hostKeyFingerprint.",
        tags: TAGS,
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: CreateConnectionBody,
        response: { 201: ConnectionSchema, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const prepared = await connections.prepare(request.body);
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) => connections.create(transaction, context, request.body, prepared));
    },
  );

  app.get(
    '/connections/:connectionId',
    {
      config: { scope },
      schema: {
        operationId: 'getConnection',
        summary: 'Get a connection',
        tags: TAGS,
        params: ConnectionParams,
        response: { 200: ConnectionSchema, ...errorResponses(404) },
      },
    },
    async (request) => connections.get(request.principal.organizationId, request.params.connectionId.toLowerCase()),
  );

  app.patch(
    '/connections/:connectionId',
    {
      config: { scope },
      schema: {
        operationId: 'updateConnection',
        summary: 'Change a connection, or confirm its host key',
        description:
          "Changes what is given. hostKeyFingerprint confirms the server's host key (the one the test showed); a new host or port forgets the confirmed key. " +
          'A new authMethod, privateKey or password replaces the secret (generated_key makes a new key pair: hand its public half to the bank).',
        tags: TAGS,
        params: ConnectionParams,
        headers: IdempotencyKeyHeaders,
        body: UpdateConnectionBody,
        response: { 200: ConnectionSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const connectionId = request.params.connectionId.toLowerCase();
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => connections.update(transaction, context, connectionId, request.body));
    },
  );

  app.delete(
    '/connections/:connectionId',
    {
      config: { scope },
      schema: {
        operationId: 'deleteConnection',
        summary: 'Delete a connection',
        description: 'Deletes the connection with its pickups and their history; the imports they made stay.',
        tags: TAGS,
        params: ConnectionParams,
        headers: IdempotencyKeyHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const connectionId = request.params.connectionId.toLowerCase();
      return sendIdempotentWrite(request, reply, services, 204, async (transaction, context) => {
        await connections.remove(transaction, context, connectionId);
        return null;
      });
    },
  );

  app.post(
    '/connections/:connectionId/test',
    {
      config: { scope },
      schema: {
        operationId: 'testConnection',
        summary: 'Test a connection',
        description:
          "Connects: shows the server's host key fingerprint (to confirm, the first time), refuses a key other than the confirmed one, logs in and reads " +
          'every pickup folder. Changes nothing; what failed is in the answer (ok false, message).',
        tags: TAGS,
        params: ConnectionParams,
        response: { 200: ConnectionTestSchema, ...errorResponses(404) },
      },
    },
    async (request) => connections.test(request.principal.organizationId, request.params.connectionId.toLowerCase()),
  );

  app.get(
    '/connections/:connectionId/pickups',
    {
      config: { scope },
      schema: {
        operationId: 'listPickups',
        summary: "List a connection's pickups",
        tags: TAGS,
        params: ConnectionParams,
        response: { 200: PickupListSchema, ...errorResponses(404) },
      },
    },
    async (request) => connections.pickups(request.principal.organizationId, request.params.connectionId.toLowerCase()),
  );

  app.post(
    '/connections/:connectionId/pickups',
    {
      config: { scope },
      schema: {
        operationId: 'createPickup',
        summary: 'Create a pickup',
        description:
          'A folder and a file pattern to look at every intervalMinutes or at timesOfDay in a timeZone, and where the files go: one dataset, or routing by account. A file is taken once its ' +
          'size and time stay the same between two looks, imported once whatever its name, then left, moved to archivePath or deleted.',
        tags: TAGS,
        params: ConnectionParams,
        headers: IdempotencyKeyHeaders,
        body: CreatePickupBody,
        response: { 201: PickupSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const connectionId = request.params.connectionId.toLowerCase();
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) =>
        connections.createPickup(transaction, context, connectionId, request.body),
      );
    },
  );

  app.get(
    '/connections/:connectionId/pickups/:pickupId',
    {
      config: { scope },
      schema: { operationId: 'getPickup', summary: 'Get a pickup', tags: TAGS, params: PickupParams, response: { 200: PickupSchema, ...errorResponses(404) } },
    },
    async (request) => connections.pickup(request.principal.organizationId, request.params.connectionId.toLowerCase(), request.params.pickupId.toLowerCase()),
  );

  app.patch(
    '/connections/:connectionId/pickups/:pickupId',
    {
      config: { scope },
      schema: {
        operationId: 'updatePickup',
        summary: 'Change a pickup',
        tags: TAGS,
        params: PickupParams,
        headers: IdempotencyKeyHeaders,
        body: UpdatePickupBody,
        response: { 200: PickupSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { connectionId, pickupId } = request.params;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        connections.updatePickup(transaction, context, connectionId.toLowerCase(), pickupId.toLowerCase(), request.body),
      );
    },
  );

  app.delete(
    '/connections/:connectionId/pickups/:pickupId',
    {
      config: { scope },
      schema: {
        operationId: 'deletePickup',
        summary: 'Delete a pickup',
        tags: TAGS,
        params: PickupParams,
        headers: IdempotencyKeyHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { connectionId, pickupId } = request.params;
      return sendIdempotentWrite(request, reply, services, 204, async (transaction, context) => {
        await connections.removePickup(transaction, context, connectionId.toLowerCase(), pickupId.toLowerCase());
        return null;
      });
    },
  );

  app.post(
    '/connections/:connectionId/pickups/:pickupId/run',
    {
      config: { scope },
      schema: {
        operationId: 'runPickup',
        summary: 'Run a pickup now',
        description: 'Queues a run of the pickup now, besides its schedule; answers 202 with the run, whose record lists every file seen once it is over.',
        tags: TAGS,
        params: PickupParams,
        headers: IdempotencyKeyHeaders,
        response: { 202: PickupRunSchema, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { connectionId, pickupId } = request.params;
      const answer = await sendIdempotentWrite(request, reply, services, 202, (transaction, context) =>
        connections.runNow(transaction, context, connectionId.toLowerCase(), pickupId.toLowerCase()),
      );
      services.jobs.wake();
      return answer;
    },
  );

  app.get(
    '/connections/:connectionId/pickups/:pickupId/runs',
    {
      config: { scope },
      schema: {
        operationId: 'listPickupRuns',
        summary: "List a pickup's runs",
        description: 'The latest runs, newest first, each with every file it saw and what happened to it.',
        tags: TAGS,
        params: PickupParams,
        response: { 200: PickupRunListSchema, ...errorResponses(404) },
      },
    },
    async (request) => connections.runs(request.principal.organizationId, request.params.connectionId.toLowerCase(), request.params.pickupId.toLowerCase()),
  );

  app.get(
    '/connections/:connectionId/pickups/:pickupId/runs/:runId',
    {
      config: { scope },
      schema: {
        operationId: 'getPickupRun',
        summary: 'Get a pickup run',
        tags: TAGS,
        params: PickupRunParams,
        response: { 200: PickupRunSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { connectionId, pickupId, runId } = request.params;
      return connections.run(request.principal.organizationId, connectionId.toLowerCase(), pickupId.toLowerCase(), runId.toLowerCase());
    },
  );
}
