import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { AccessTokens } from './auth/access-tokens.ts';
import { ApiClients, secretHashKeyProvider } from './auth/api-clients.ts';
import { ClientCredentialsGrant } from './auth/client-credentials-grant.ts';
import { SigningKeys } from './auth/signing-keys.ts';

/**
 * The domain, wired once per process. The HTTP layer and the CLI reach the domain only through
 * this object; nothing here knows about HTTP.
 */
export function createServices(config: Config, database: Database) {
  const issuer = `${config.publicUrl}/`;
  const signingKeys = new SigningKeys(database, config.tokenTtlSeconds);
  const accessTokens = new AccessTokens(database, signingKeys, {
    issuer,
    audience: config.audience,
    tokenTtlSeconds: config.tokenTtlSeconds,
    revocationCheckSeconds: config.revocationCheckSeconds,
  });
  const hashKey = secretHashKeyProvider(database, config.secretHashKey);
  const grant = new ClientCredentialsGrant(database, accessTokens, hashKey, {
    audience: config.audience,
    failureLimit: config.tokenFailureLimit,
    failureWindowSeconds: config.tokenFailureWindowSeconds,
  });
  const apiClients = new ApiClients(database, hashKey, (clientId) => {
    accessTokens.forgetClient(clientId);
    grant.forgetClient(clientId);
  });
  return { config, database, issuer, signingKeys, accessTokens, grant, apiClients };
}

export type Services = ReturnType<typeof createServices>;
