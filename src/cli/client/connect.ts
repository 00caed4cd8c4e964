import { LedgerRecon } from '@ledger-recon/sdk';
import { resolveProfile, type Profile } from './profiles.ts';

/** The SDK client of a profile: every client command reaches the server through it. */
export function clientOf(profile: Profile): LedgerRecon {
  return new LedgerRecon({
    baseUrl: profile.server,
    clientId: profile.clientId,
    clientSecret: profile.clientSecret,
    tokenUrl: profile.tokenUrl,
    audience: profile.audience,
    orgId: profile.orgId,
    userAgent: 'ledger-recon-cli',
  });
}

export function connect(profileName: string | undefined): LedgerRecon {
  return clientOf(resolveProfile(profileName));
}
