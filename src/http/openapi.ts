import { IMPORT_MEDIA_TYPES } from './routes/api/imports.ts';
import type { SwaggerOptions } from '@fastify/swagger';

const OAUTH_ERROR = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: {
      type: 'string',
      enum: ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'access_denied', 'invalid_scope', 'too_many_requests', 'temporarily_unavailable'],
    },
    error_description: { type: 'string' },
  },
};

const oauthError = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } } });

/**
 * The token endpoint and the discovery documents are described here rather than by route
 * schemas: their bodies are read by their own parsers and their errors follow RFC 6749, and a
 * validation schema on them would add nothing but a second error format.
 */
const oauthPaths = {
  '/oauth/token': {
    post: {
      operationId: 'requestToken',
      summary: 'Request an access token (OAuth 2.0 client-credentials grant)',
      description:
        'Authenticate with client_id and client_secret in the body, or with HTTP Basic (both parts form-urlencoded), not both. ' +
        'Too many failed attempts for one client_id from one address (or, far more, from all addresses together) are refused with 429 before the secret is checked. ' +
        "A scope parameter asks for a subset of the role's scopes; the token then carries exactly that subset.",
      tags: ['Tokens'],
      security: [],
      requestBody: {
        required: true,
        content: Object.fromEntries(
          ['application/x-www-form-urlencoded', 'application/json'].map((mediaType) => [
            mediaType,
            {
              schema: {
                type: 'object',
                required: ['grant_type', 'audience'],
                properties: {
                  grant_type: { type: 'string', enum: ['client_credentials'] },
                  client_id: { type: 'string' },
                  client_secret: { type: 'string' },
                  audience: { type: 'string', description: 'The API audience supplied with the credentials (default PUBLIC_URL/v1/api).' },
                  scope: {
                    type: 'string',
                    description:
                      "Optional: space-separated scopes (read:data, write:data, manage:credentials), at most those of the client's role; the token carries exactly these. Without it, every scope of the role.",
                  },
                },
              },
            },
          ]),
        ),
      },
      responses: {
        200: {
          description: 'The token. Cache-Control: no-store.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['access_token', 'token_type', 'expires_in', 'scope'],
                properties: {
                  access_token: { type: 'string', description: 'An RS256 JWT (RFC 9068); send it as "Authorization: Bearer <token>".' },
                  token_type: { type: 'string', enum: ['Bearer'] },
                  expires_in: { type: 'integer', description: 'Lifetime in seconds (TOKEN_TTL_SECONDS, default 10800).' },
                  scope: { type: 'string' },
                },
              },
            },
          },
        },
        400: oauthError('invalid_request, unsupported_grant_type or invalid_scope.'),
        401: oauthError('invalid_client: one answer for an unknown client, a wrong secret, or revoked credentials.'),
        403: oauthError('access_denied: the audience is not this API.'),
        429: oauthError('too_many_requests, with Retry-After: too many failed attempts for this client from this address, or from all addresses together.'),
        503: oauthError('temporarily_unavailable, with Retry-After: the server is stopping and did not handle the request.'),
      },
    },
  },
  '/.well-known/oauth-authorization-server': {
    get: {
      operationId: 'getAuthorizationServerMetadata',
      summary: 'Authorization server metadata (RFC 8414)',
      tags: ['Tokens'],
      security: [],
      responses: { 200: { description: 'issuer, token_endpoint, jwks_uri and the supported grant and authentication methods.' } },
    },
  },
  '/.well-known/jwks.json': {
    get: {
      operationId: 'getSigningKeys',
      summary: 'The public keys that sign access tokens (JWKS)',
      description: 'A key is published before it signs and stays published until the last token it signed has expired.',
      tags: ['Tokens'],
      security: [],
      responses: { 200: { description: '{"keys": [JWK, ...]}' } },
    },
  },
};

/**
 * The operations that take a file read it as a stream, so their routes carry no body schema;
 * the document says what they take here: the raw file in any of the media types an import
 * reads, or multipart/form-data with a "file" part and an optional "mapping" part.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generated document is JSON, walked and amended by key
function describeFileBodies(paths: Record<string, Record<string, any>>) {
  const file = { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file itself.' };
  const raw = Object.fromEntries(IMPORT_MEDIA_TYPES.map((mediaType) => [mediaType, { schema: file }]));
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods)) {
      if (operation?.operationId !== 'importFile' && operation?.operationId !== 'previewImport') continue;
      operation.requestBody = {
        required: true,
        content: {
          ...raw,
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                ...(operation.operationId === 'importFile'
                  ? { mapping: { type: 'string', description: 'The CSV mapping as JSON (before the file part).' } }
                  : {}),
                file: file,
              },
            },
          },
        },
      };
    }
  }
}

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
    transformObject: (documentObject) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generated document is JSON, walked and amended by key
      const document = (documentObject as { openapiObject: Record<string, any> }).openapiObject;
      describeFileBodies(document.paths);
      return {
        ...document,
        paths: { ...oauthPaths, ...document.paths },
        components: { ...document.components, schemas: { ...document.components?.schemas, OAuthError: OAUTH_ERROR } },
      };
    },
    // Operation ids come from the route definitions, so generated clients get stable names.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  };
}
