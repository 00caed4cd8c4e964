import type { Services } from './services.ts';
import { createOrganization } from './organizations.ts';

export interface DemoCredentials {
  orgId: string;
  email: string;
  password: string;
  clientId: string;
  clientSecret: string;
  bankDatasetId: string;
}

export async function seedDemo(services: Services): Promise<DemoCredentials> {
  const created = await createOrganization(services.database, services.apiClients, {
    name: 'Demo Company',
    adminEmail: 'admin@demo.example',
    createdBy: 'demo-seed',
  });
  return {
    orgId: created.orgId,
    email: created.user.email,
    password: created.user.password,
    clientId: created.client.clientId,
    clientSecret: created.client.clientSecret,
    bankDatasetId: '00000000-0000-0000-0000-000000000000',
  };
}
