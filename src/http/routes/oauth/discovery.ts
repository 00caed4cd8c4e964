import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../domain/services.ts';

/** Authorization server metadata (RFC 8414) and the JWKS that verifiers fetch. */
export async function discoveryRoutes(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const metadata = () => ({
    issuer: services.issuer,
    token_endpoint: `${services.config.publicUrl}/oauth/token`,
    jwks_uri: `${services.config.publicUrl}/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: ['token'],
    scopes_supported: ['read:data', 'write:data', 'manage:credentials'],
  });
  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async () => metadata());
  app.get('/.well-known/jwks.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return services.signingKeys.jwks();
  });
}
