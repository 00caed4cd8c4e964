import type { WriteContext } from './audit.ts';
import type { Queryable } from '../db/database.ts';
import { countOrganizations } from '../db/repositories/organizations.ts';
import { findIdsByExternalId } from '../db/repositories/transactions.ts';
import { createOrganizationIn, prepareAdministratorPassword } from './organizations.ts';
import type { Services } from './services.ts';

export interface DemoCredentials {
  orgId: string;
  email: string;
  password: string;
  clientId: string;
  clientSecret: string;
  bankDatasetId: string;
  ledgerDatasetId: string;
}

const DAY_MILLISECONDS = 86_400_000;
/** 1 October 2026, 09:00 UTC: the demo month. */
const MONTH_START_MILLISECONDS = Date.UTC(2026, 9, 1, 9, 0, 0);

const customers = [
  'Alder & Finch Ltd', 'Brightwater GmbH', 'Cobalt Logistics', 'Dunmore Bakeries', 'Elmstead Clinic', 'Fairhaven Studio',
  'Glenrock Mining', 'Harbourline BV', 'Ironbridge Tools', 'Juniper Foods', 'Kestrel Aviation', 'Lindqvist AB',
  'Marlow Textiles', 'Northgate Pharmacy', 'Oakridge Farms', 'Pemberton Legal', 'Quayside Hotels', 'Redfern Analytics',
  'Saltmarsh Brewing', 'Thornbury Press', 'Upland Energy', 'Vantage Print', 'Westcott Dental', 'Yarrow Design',
];

/** Invoice amounts in cents-exact decimal text, chosen by hand so the demo reads like a real month. */
const amounts = [
  '1250.00', '830.40', '4999.99', '312.75', '2100.00', '645.10', '7800.00', '155.25', '990.00', '2475.60', '12500.00', '68.90',
  '3320.00', '540.00', '1875.35', '920.00', '1500.00', '1000.00', '2750.00', '415.80', '6100.00', '289.99', '1340.00', '777.77',
];

function day(index: number, hour = 0): number {
  return MONTH_START_MILLISECONDS + index * DAY_MILLISECONDS + hour * 3_600_000;
}

/**
 * The demo organization of a first start: a bank statement and a general-ledger cash account
 * for one month, matched the way a finance team would leave them mid-close: most pairs matched
 * one to one, one bank receipt settling two invoices, one short payment (partial), a bank fee
 * kept for information, an internal transfer out of scope, and a few items still open.
 */
export async function seedDemoIntoEmptyStore(services: Services): Promise<DemoCredentials | null> {
  if ((await countOrganizations(services.database)) > 0) return null;
  return seedDemo(services);
}

async function seedDemo(services: Services): Promise<DemoCredentials> {
  const administratorPassword = await prepareAdministratorPassword();
  // One transaction: a crash part way leaves no half-seeded organization behind, and the next
  // start (which seeds only an empty store) seeds again.
  return services.database.transaction(async (transaction) => {
    const created = await createOrganizationIn(
      transaction,
      services.apiClients,
      { name: 'Demo Company', adminEmail: 'admin@demo.example', createdBy: 'system:demo-seed' },
      administratorPassword,
    );
    const context: WriteContext = { organizationId: created.orgId, actor: 'system:demo-seed', requestId: null };

    const bankSource = await services.sources.create(transaction, context, { name: 'Northwind Bank' });
    const bank = await services.datasets.create(transaction, context, {
      sourceId: bankSource.id,
      name: 'Operating account EUR',
      columns: [
        { name: 'counterparty', type: 'string' },
        { name: 'valueDate', type: 'date' },
      ],
    });
    const ledgerSource = await services.sources.create(transaction, context, { name: 'General ledger' });
    const ledger = await services.datasets.create(transaction, context, {
      sourceId: ledgerSource.id,
      name: 'Cash at bank 1200',
      columns: [
        { name: 'account', type: 'string' },
        { name: 'documentNumber', type: 'string' },
      ],
    });

    const bankRecords = bankStatement();
    const ledgerRecords = ledgerEntries();
    await services.ingest(transaction, context, bank.id, bankRecords);
    await services.ingest(transaction, context, ledger.id, ledgerRecords);
    const bankIds = await idsInOrder(transaction, created.orgId, bank.id, bankRecords);
    const ledgerIds = await idsInOrder(transaction, created.orgId, ledger.id, ledgerRecords);

    // Pairs 0..15 and 17 match one to one (17 is a short payment: the ledger side stays partial).
    for (const index of [...Array(16).keys(), 17]) {
      await services.matching.create(transaction, context, {
        links: [{ originId: bankIds[index]!, targetId: ledgerIds[index]! }],
        note: null,
        force: false,
      });
    }
    // One bank receipt settles two invoices (1:N).
    await services.matching.create(transaction, context, {
      links: [
        { originId: bankIds[16]!, targetId: ledgerIds[16]! },
        { originId: bankIds[16]!, targetId: ledgerIds[24]! },
      ],
      note: 'one payment for INV-10416 and INV-10499',
      force: false,
    });
    await services.transactionStatus.change(transaction, context, {
      transactionId: bankIds[24]!,
      status: 'informative',
      note: 'bank fee, booked in the fee account',
    });
    await services.transactionStatus.change(transaction, context, {
      transactionId: bankIds[25]!,
      status: 'out of scope',
      note: 'internal transfer, reconciled in the savings account',
    });

    return {
      orgId: created.orgId,
      email: created.user.email,
      password: created.user.password,
      clientId: created.client.clientId,
      clientSecret: created.client.clientSecret,
      bankDatasetId: bank.id,
      ledgerDatasetId: ledger.id,
    };
  });
}

function bankStatement(): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = customers.map((customer, index) => ({
    externalId: `NWB-2026-10-${String(index + 1).padStart(4, '0')}`,
    timestamp: day(index, 2),
    description: `SEPA credit ${customer} INV-${10400 + index}`,
    type: 'credit transfer',
    reference: `INV-${10400 + index}`,
    currency: 'EUR',
    amount: index === 17 ? '980.00' : amounts[index],
    counterparty: customer,
    valueDate: day(index),
  }));
  records.push(
    {
      externalId: 'NWB-2026-10-FEE',
      timestamp: day(27, 1),
      description: 'Account maintenance fee October',
      type: 'bank fee',
      reference: 'FEE-2026-10',
      currency: 'EUR',
      amount: '-12.50',
      counterparty: 'Northwind Bank',
      valueDate: day(27),
    },
    {
      externalId: 'NWB-2026-10-TRF',
      timestamp: day(28, 1),
      description: 'Transfer to savings account',
      type: 'internal transfer',
      reference: 'TRF-8841',
      currency: 'EUR',
      amount: '-5000.00',
      counterparty: 'Demo Company savings',
      valueDate: day(28),
    },
  );
  return records;
}

function ledgerEntries(): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = customers.map((customer, index) => ({
    externalId: `GL-1200-${20000 + index}`,
    timestamp: day(index),
    description: `Receipt ${customer} invoice INV-${10400 + index}`,
    type: 'customer receipt',
    reference: `INV-${10400 + index}`,
    currency: 'EUR',
    amount: index === 16 ? '1000.00' : amounts[index],
    account: '1200 Cash at bank',
    documentNumber: `DOC-${30000 + index}`,
  }));
  // The second invoice settled by the same bank receipt as invoice 16.
  records.push({
    externalId: 'GL-1200-20099',
    timestamp: day(16, 1),
    description: `Receipt ${customers[16]} invoice INV-10499`,
    type: 'customer receipt',
    reference: 'INV-10499',
    currency: 'EUR',
    amount: '500.00',
    account: '1200 Cash at bank',
    documentNumber: 'DOC-30099',
  });
  return records;
}

/** The ids of the stored records, in the order the records were written. */
async function idsInOrder(transaction: Queryable, organizationId: string, datasetId: string, records: Record<string, unknown>[]): Promise<string[]> {
  const externalIds = records.map((record) => String(record.externalId));
  const ids = await findIdsByExternalId(transaction, organizationId, datasetId, externalIds);
  return externalIds.map((externalId) => ids.get(externalId)!);
}
