import type { SwaggerOptions } from '@fastify/swagger';

/** The OpenAPI 3.1 document is generated from the route schemas; this is its frame. */
export function openApiDocumentation(publicUrl: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ledger-recon API',
        version: '1.0.0',
        description:
          'Transactions, matches and reconciliation status. Obtain a token with the client-credentials grant at POST /oauth/token ' +
          '(form-encoded: grant_type=client_credentials, client_id, client_secret, audience) and send it as "Authorization: Bearer <token>".',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
      security: [{ bearer: [] }],
    },
    // Operation ids come from the route definitions, so generated clients get stable names.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  };
}
