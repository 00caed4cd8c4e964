import type { WriteContext } from './audit.ts';
import type { Queryable } from '../db/database.ts';
import { countOrganizations, findBootstrapClient, setUserPassword } from '../db/repositories/organizations.ts';
import { findSetting, setSetting } from '../db/repositories/settings.ts';
import { findIdsByExternalId } from '../db/repositories/transactions.ts';
import { createOrganizationIn, prepareAdministratorPassword } from './organizations.ts';
import type { Services } from './services.ts';
import { bankExternalId } from './imports/entry-identity.ts';
import type { ImportRequest } from './imports/imports.ts';
import { fileFromBytes } from './imports/spooled-file.ts';
import type { ImportFormat } from './imports/statement-entries.ts';
import { addDecimals, DecimalSum } from './money.ts';

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

/** Who the demo seed is, in createdBy fields and audit events. */
const DEMO_ACTOR = 'system:demo-seed';
/** The instance setting that remembers the demo organization and its datasets. */
const DEMO_SETTING = 'demo_organization';

interface DemoRecord {
  orgId: string;
  email: string;
  bankDatasetId: string;
  ledgerDatasetId: string;
}

/**
 * Working demo credentials again, for a person who lost the ones printed at the first start (a
 * failed first start, a closed terminal): the demo client's secrets are replaced by a new one
 * and the demo user gets a new password. A store without a demo gets one.
 */
export async function renewDemoCredentials(services: Services): Promise<{ demo: DemoCredentials; created: boolean }> {
  const stored = await findSetting(services.database, DEMO_SETTING);
  if (stored === undefined) return { demo: await seedDemo(services), created: true };
  const record = JSON.parse(stored) as DemoRecord;
  const password = await prepareAdministratorPassword();
  const demo = await services.database.transaction(async (transaction) => {
    const clientId = await findBootstrapClient(transaction, record.orgId, DEMO_ACTOR);
    let clientSecret: string;
    let currentClientId: string;
    if (clientId === undefined) {
      // The demo client was revoked: a new one takes its place.
      const created = await services.apiClients.create(transaction, { organizationId: record.orgId, name: 'Default API client', role: 'Administrator', createdBy: DEMO_ACTOR });
      currentClientId = created.clientId;
      clientSecret = created.clientSecret;
    } else {
      currentClientId = clientId;
      clientSecret = (await services.apiClients.replaceSecrets(transaction, record.orgId, clientId)).clientSecret;
    }
    await setUserPassword(transaction, record.orgId, record.email, password.hash);
    return { ...record, password: password.password, clientId: currentClientId, clientSecret };
  });
  return { demo, created: false };
}

async function seedDemo(services: Services): Promise<DemoCredentials> {
  const administratorPassword = await prepareAdministratorPassword();
  // One transaction: a crash part way leaves no half-seeded organization behind, and the next
  // start (which seeds only an empty store) seeds again.
  return services.database.transaction(async (transaction) => {
    const created = await createOrganizationIn(
      transaction,
      services.apiClients,
      { name: 'Demo Company', adminEmail: 'admin@demo.example', createdBy: DEMO_ACTOR },
      administratorPassword,
    );
    const context: WriteContext = { organizationId: created.orgId, actor: DEMO_ACTOR, requestId: null };

    const bankSource = await services.sources.create(transaction, context, { name: 'Northwind Bank' });
    // The bank dataset declares no columns: the statement's import adds the bank columns
    // (valueDate, counterpartyName, bankReference...) the first time it fills them.
    const bank = await services.datasets.create(transaction, context, { sourceId: bankSource.id, name: 'Operating account EUR', columns: [] });
    const ledgerSource = await services.sources.create(transaction, context, { name: 'General ledger' });
    const ledger = await services.datasets.create(transaction, context, {
      sourceId: ledgerSource.id,
      name: 'Cash at bank 1200',
      columns: [
        { name: 'account', type: 'string' },
        { name: 'documentNumber', type: 'string' },
      ],
    });

    // The two sides arrive the way they do in practice: the bank's end-of-day statement as a
    // camt.053 file, the ledger as a CSV export, both through the importer.
    const bankEntries = bankStatementEntries();
    const ledgerRows = ledgerEntries();
    await services.imports.importWithin(transaction, context, importRequest(bank.id, 'camt.053', 'northwind-2026-10.camt053.xml'), fileFromBytes(Buffer.from(camt053Statement(bankEntries))));
    await services.imports.importWithin(transaction, context, importRequest(ledger.id, 'csv', 'gl-1200-2026-10.csv'), fileFromBytes(Buffer.from(ledgerCsv(ledgerRows))));
    const bankIds = await idsInOrder(transaction, created.orgId, bank.id, bankEntries.map((entry) => bankExternalId(DEMO_IBAN, entry.bankReference)));
    const ledgerIds = await idsInOrder(transaction, created.orgId, ledger.id, ledgerRows.map((row) => row.externalId));

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

    const record: DemoRecord = { orgId: created.orgId, email: created.user.email, bankDatasetId: bank.id, ledgerDatasetId: ledger.id };
    await setSetting(transaction, DEMO_SETTING, JSON.stringify(record));
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

/** The demo company's account at Northwind Bank. */
const DEMO_IBAN = 'DE89370400440532013000';
/** The account's balance before the demo month. */
const OPENING_BALANCE = '18450.00';

interface BankEntry {
  bankReference: string;
  bookedAtMilliseconds: number;
  valueDateMilliseconds: number;
  /** Signed: negative is money out. */
  amount: string;
  /** Domain/family/sub-family of the ISO 20022 bank transaction code. */
  code: [string, string, string];
  counterparty: string;
  endToEndId: string;
  remittance: string;
}

function bankStatementEntries(): BankEntry[] {
  const entries: BankEntry[] = customers.map((customer, index) => ({
    bankReference: `NWB-2026-10-${String(index + 1).padStart(4, '0')}`,
    bookedAtMilliseconds: day(index, 2),
    valueDateMilliseconds: day(index),
    amount: index === 17 ? '980.00' : amounts[index]!,
    code: ['PMNT', 'RCDT', 'ESCT'],
    counterparty: customer,
    endToEndId: `INV-${10400 + index}`,
    remittance: `SEPA credit ${customer} INV-${10400 + index}`,
  }));
  entries.push(
    {
      bankReference: 'NWB-2026-10-FEE',
      bookedAtMilliseconds: day(27, 1),
      valueDateMilliseconds: day(27),
      amount: '-12.50',
      code: ['ACMT', 'MDOP', 'CHRG'],
      counterparty: 'Northwind Bank',
      endToEndId: 'FEE-2026-10',
      remittance: 'Account maintenance fee October',
    },
    {
      bankReference: 'NWB-2026-10-TRF',
      bookedAtMilliseconds: day(28, 1),
      valueDateMilliseconds: day(28),
      amount: '-5000.00',
      code: ['PMNT', 'ICDT', 'ESCT'],
      counterparty: 'Demo Company savings',
      endToEndId: 'TRF-8841',
      remittance: 'Transfer to savings account',
    },
  );
  return entries;
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function isoDate(milliseconds: number): string {
  return new Date(milliseconds).toISOString().slice(0, 10);
}

/** The month's statement as the bank sends it: ISO 20022 camt.053.001.08. */
function camt053Statement(entries: BankEntry[]): string {
  const sum = new DecimalSum();
  for (const entry of entries) sum.add(entry.amount);
  const closing = addDecimals(OPENING_BALANCE, sum.total);
  const balance = (code: string, amount: string, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount.replace('-', '')}</Amt>` +
    `<CdtDbtInd>${amount.startsWith('-') ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const entryXml = (entry: BankEntry) => {
    const incoming = !entry.amount.startsWith('-');
    const party = `<${incoming ? 'Dbtr' : 'Cdtr'}><Pty><Nm>${xmlText(entry.counterparty)}</Nm></Pty></${incoming ? 'Dbtr' : 'Cdtr'}>`;
    return [
      `<Ntry><Amt Ccy="EUR">${entry.amount.replace('-', '')}</Amt><CdtDbtInd>${incoming ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>`,
      `<BookgDt><DtTm>${new Date(entry.bookedAtMilliseconds).toISOString().replace('.000Z', 'Z')}</DtTm></BookgDt><ValDt><Dt>${isoDate(entry.valueDateMilliseconds)}</Dt></ValDt>`,
      `<AcctSvcrRef>${entry.bankReference}</AcctSvcrRef>`,
      `<BkTxCd><Domn><Cd>${entry.code[0]}</Cd><Fmly><Cd>${entry.code[1]}</Cd><SubFmlyCd>${entry.code[2]}</SubFmlyCd></Fmly></Domn></BkTxCd>`,
      `<NtryDtls><TxDtls><Refs><EndToEndId>${entry.endToEndId}</EndToEndId></Refs><RltdPties>${party}</RltdPties>`,
      `<RmtInf><Ustrd>${xmlText(entry.remittance)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    ].join('\n        ');
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">',
    '  <BkToCstmrStmt>',
    '    <GrpHdr><MsgId>NWB-STMT-2026-10</MsgId><CreDtTm>2026-10-31T22:00:00Z</CreDtTm></GrpHdr>',
    '    <Stmt>',
    '      <Id>NWB-2026-10</Id>',
    '      <CreDtTm>2026-10-31T22:00:00Z</CreDtTm>',
    `      <Acct><Id><IBAN>${DEMO_IBAN}</IBAN></Id><Ccy>EUR</Ccy><Ownr><Nm>Demo Company</Nm></Ownr></Acct>`,
    `      ${balance('OPBD', OPENING_BALANCE, '2026-09-30')}`,
    `      ${balance('CLBD', closing, '2026-10-31')}`,
    ...entries.map((entry) => `      ${entryXml(entry)}`),
    '    </Stmt>',
    '  </BkToCstmrStmt>',
    '</Document>',
    '',
  ].join('\n');
}

interface LedgerRow {
  externalId: string;
  timestampMilliseconds: number;
  description: string;
  type: string;
  reference: string;
  amount: string;
  documentNumber: string;
}

function ledgerEntries(): LedgerRow[] {
  const rows: LedgerRow[] = customers.map((customer, index) => ({
    externalId: `GL-1200-${20000 + index}`,
    timestampMilliseconds: day(index),
    description: `Receipt ${customer} invoice INV-${10400 + index}`,
    type: 'customer receipt',
    reference: `INV-${10400 + index}`,
    amount: index === 16 ? '1000.00' : amounts[index]!,
    documentNumber: `DOC-${30000 + index}`,
  }));
  // The second invoice settled by the same bank receipt as invoice 16.
  rows.push({
    externalId: 'GL-1200-20099',
    timestampMilliseconds: day(16, 1),
    description: `Receipt ${customers[16]} invoice INV-10499`,
    type: 'customer receipt',
    reference: 'INV-10499',
    amount: '500.00',
    documentNumber: 'DOC-30099',
  });
  return rows;
}

/** The ledger's export: a CSV whose header names the dataset's columns, so it needs no mapping. */
function ledgerCsv(rows: LedgerRow[]): string {
  const quoted = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = rows.map((row) =>
    [row.externalId, new Date(row.timestampMilliseconds).toISOString(), row.description, row.type, row.reference, 'EUR', row.amount, '1200 Cash at bank', row.documentNumber]
      .map(quoted)
      .join(','),
  );
  return ['externalId,timestamp,description,type,reference,currency,amount,account,documentNumber', ...lines, ''].join('\r\n');
}

function importRequest(datasetId: string, format: ImportFormat, fileName: string): ImportRequest {
  return { datasetId, format, encoding: null, fileName, mapping: null, mappingName: null };
}

/** The ids of the stored records, in the order of the given external ids. */
async function idsInOrder(transaction: Queryable, organizationId: string, datasetId: string, externalIds: string[]): Promise<string[]> {
  const ids = await findIdsByExternalId(transaction, organizationId, datasetId, externalIds);
  return externalIds.map((externalId) => {
    const id = ids.get(externalId);
    if (id === undefined) throw new Error(`the demo record ${externalId} was not imported`);
    return id;
  });
}
