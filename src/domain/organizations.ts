import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import { insertOrganization, insertUser } from '../db/repositories/organizations.ts';
import { invalidField, quoteInput } from '../errors.ts';
import type { ApiClients } from './auth/api-clients.ts';
import { generatePassword, hashPassword } from './auth/secrets.ts';

export interface BootstrappedOrganization {
  orgId: string;
  user: { email: string; password: string };
  client: { clientId: string; clientSecret: string };
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

interface OrganizationInput {
  name: string;
  adminEmail: string;
  createdBy: string;
}

/** Creates an organization with an Administrator user and an Administrator API client, all or nothing. */
export async function createOrganization(database: Database, clients: ApiClients, input: OrganizationInput): Promise<BootstrappedOrganization> {
  const passwordHash = await prepareAdministratorPassword();
  return database.transaction((transaction) => createOrganizationIn(transaction, clients, input, passwordHash));
}

/** Hashing is slow by design, so it happens before any transaction is opened. */
export async function prepareAdministratorPassword(): Promise<{ password: string; hash: string }> {
  const password = generatePassword();
  return { password, hash: await hashPassword(password) };
}

/** The same, inside a transaction of the caller (which commits or rolls back everything). */
export async function createOrganizationIn(
  transaction: Queryable,
  clients: ApiClients,
  input: OrganizationInput,
  administratorPassword: { password: string; hash: string },
): Promise<BootstrappedOrganization> {
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw invalidField('--org', 'the organization name must be 1 to 200 characters');
  const email = input.adminEmail.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) throw invalidField('--admin-email', `${quoteInput(input.adminEmail)} is not an email address`);
  const orgId = randomUUID();
  await insertOrganization(transaction, orgId, name);
  await insertUser(transaction, { id: randomUUID(), organizationId: orgId, email, passwordHash: administratorPassword.hash, role: 'Administrator' });
  const client = await clients.create(transaction, {
    organizationId: orgId,
    name: 'Default API client',
    role: 'Administrator',
    createdBy: input.createdBy,
  });
  return {
    orgId,
    user: { email, password: administratorPassword.password },
    client: { clientId: client.clientId, clientSecret: client.clientSecret },
  };
}
