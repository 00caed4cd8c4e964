import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { insertOrganization, insertUser } from '../db/repositories/organizations.ts';
import { invalidField } from '../errors.ts';
import type { ApiClients } from './auth/api-clients.ts';
import { generatePassword, hashPassword } from './auth/secrets.ts';

export interface BootstrappedOrganization {
  orgId: string;
  user: { email: string; password: string };
  client: { clientId: string; clientSecret: string };
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/** Creates an organization with an Administrator user and an Administrator API client, all or nothing. */
export async function createOrganization(
  database: Database,
  clients: ApiClients,
  input: { name: string; adminEmail: string; createdBy: string },
): Promise<BootstrappedOrganization> {
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw invalidField('--org', 'the organization name must be 1 to 200 characters');
  const email = input.adminEmail.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) throw invalidField('--admin-email', `"${input.adminEmail}" is not an email address`);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  return database.transaction(async (transaction) => {
    const orgId = randomUUID();
    await insertOrganization(transaction, orgId, name);
    await insertUser(transaction, { id: randomUUID(), organizationId: orgId, email, passwordHash, role: 'Administrator' });
    const client = await clients.create(transaction, {
      organizationId: orgId,
      name: 'Default API client',
      role: 'Administrator',
      createdBy: input.createdBy,
    });
    return { orgId, user: { email, password }, client: { clientId: client.clientId, clientSecret: client.clientSecret } };
  });
}
