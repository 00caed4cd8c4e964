import type { FastifyInstance } from 'fastify';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';

/**
 * How long verifiers may cache the JWKS. Rotation publishes a key KEY_PUBLISH_LEAD_SECONDS
 * (an hour by default) before it signs, far longer than this, and verifiers such as jose
 * re-fetch on an unknown kid anyway.
 */
const JWKS_CACHE_SECONDS = 300;
const METADATA_CACHE_SECONDS = 3600;

/** Authorization server metadata (RFC 8414) and the JWKS that verifiers fetch. */
export async function discoveryRoutes(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const { publicUrl } = services.config;
  const metadata = {
    // With the trailing slash, as Auth0 does; tokens carry the same string in "iss".
    issuer: services.issuer,
    token_endpoint: `${publicUrl}/oauth/token`,
    jwks_uri: `${publicUrl}/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    // There is no authorization endpoint, so no response type is supported.
    response_types_supported: [],
    scopes_supported: Object.values(Scopes),
    service_documentation: `${publicUrl}/docs`,
  };
  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${METADATA_CACHE_SECONDS}`);
    return metadata;
  });
  app.get('/.well-known/jwks.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${JWKS_CACHE_SECONDS}`);
    return services.signingKeys.jwks();
  });
}
