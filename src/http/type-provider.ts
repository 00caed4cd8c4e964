import type { FastifyInstance, FastifyTypeProvider } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';

/**
 * Lets Fastify type a handler's request from the TypeBox schemas its route declares, so the
 * schema that validates a request (and feeds docs/openapi.json) is also the type the handler
 * reads: one definition, no casts. Inputs only: answers are typed by the domain functions that
 * make them and checked at run time by the response schemas' serializers.
 */
export interface TypeBoxTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
  serializer: unknown;
}

/** A route plugin's view of the application: requests typed by their schemas. */
export function typedRoutes(app: FastifyInstance) {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}
