/**
 * File imports on PostgreSQL (a section of `npm run bench`): a generated CSV of 1,000,000 rows
 * and a generated camt.053 of 200,000 entries imported through HTTP by the real server (a child
 * process), against the same rows loaded with raw COPY into the same table, in the same run.
 * Also the server's peak resident memory above its idle level while it imports 100,000 and
 * 1,000,000 rows: the file is streamed, so the growth should not follow the size of the file.
 *
 * Settings: BENCH_IMPORT_CSV_ROWS (default 1000000), BENCH_IMPORT_CAMT_ENTRIES (200000),
 * BENCH_IMPORT_SMALL_ROWS (100000).
 */
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createServices } from '../src/domain/services.ts';
import { DecimalSum, addDecimals } from '../src/domain/money.ts';
import { dropDatabase, format, freePort, log, positiveInteger, printTable, recreateDatabase, startServer, stopServer, type TableRow } from './support.ts';

const BENCH_DATABASE = 'ledger_recon_bench_imports';
const IBAN = 'DE89370400440532013000';
/** How often the server's resident memory is sampled during an import. */
const MEMORY_SAMPLE_MILLISECONDS = 20;
const TARGET_CSV_RATIO = 0.5;
const TARGET_CAMT_RATIO = 0.3;
const TARGET_GROWTH_MEGABYTES = 150;
const TIMESTAMP_START_MILLISECONDS = Date.UTC(2026, 0, 1);

/** The n-th generated transaction: the same for the CSV, the camt.053 and the COPY baseline. */
function row(ordinal: number) {
  const cents = ((ordinal * 7919) % 2_000_000) - 500_000;
  const negative = cents < 0;
  const absolute = Math.abs(cents);
  return {
    id: `BENCH-${String(ordinal).padStart(8, '0')}`,
    timestampMilliseconds: TIMESTAMP_START_MILLISECONDS + ordinal * 1000,
    description: `SEPA credit transfer customer ${ordinal % 977} invoice INV-${1_000_000 + ordinal}`,
    reference: `INV-${1_000_000 + ordinal}`,
    amount: `${negative ? '-' : ''}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`,
    counterparty: `Customer ${ordinal % 977} Ltd`,
  };
}

/** Writes text produced in pieces to a file, waiting when the disk is behind. */
async function writeFile(filePath: string, pieces: Iterable<string>): Promise<number> {
  await pipeline(Readable.from(pieces), createWriteStream(filePath));
  return statSync(filePath).size;
}

function* csvLines(rows: number): Generator<string> {
  yield 'externalId,timestamp,description,type,reference,currency,amount\n';
  let chunk = '';
  for (let ordinal = 0; ordinal < rows; ordinal++) {
    const entry = row(ordinal);
    chunk += `${entry.id},${new Date(entry.timestampMilliseconds).toISOString()},${entry.description},credit transfer,${entry.reference},EUR,${entry.amount}\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

function* camtLines(entries: number): Generator<string> {
  const sum = new DecimalSum();
  for (let ordinal = 0; ordinal < entries; ordinal++) sum.add(row(ordinal).amount);
  const opening = '1000000.00';
  const closing = addDecimals(opening, sum.total);
  const balance = (code: string, amount: string, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount.replace('-', '')}</Amt><CdtDbtInd>${amount.startsWith('-') ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>\n`;
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>\n';
  yield '<GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-12-31T22:00:00Z</CreDtTm></GrpHdr>\n';
  yield `<Stmt><Id>BENCH-1</Id><Acct><Id><IBAN>${IBAN}</IBAN></Id><Ccy>EUR</Ccy></Acct>\n`;
  yield balance('OPBD', opening, '2025-12-31') + balance('CLBD', closing, '2026-12-31');
  let chunk = '';
  for (let ordinal = 0; ordinal < entries; ordinal++) {
    const entry = row(ordinal);
    const incoming = !entry.amount.startsWith('-');
    const party = incoming ? 'Dbtr' : 'Cdtr';
    const date = new Date(entry.timestampMilliseconds).toISOString().slice(0, 10);
    chunk +=
      `<Ntry><Amt Ccy="EUR">${entry.amount.replace('-', '')}</Amt><CdtDbtInd>${incoming ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
      `<BookgDt><Dt>${date}</Dt></BookgDt><ValDt><Dt>${date}</Dt></ValDt><AcctSvcrRef>${entry.id}</AcctSvcrRef>` +
      `<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${incoming ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
      `<NtryDtls><TxDtls><Refs><EndToEndId>${entry.reference}</EndToEndId></Refs><RltdPties><${party}><Pty><Nm>${entry.counterparty}</Nm></Pty></${party}></RltdPties>` +
      `<RmtInf><Ustrd>${entry.description}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk + '</Stmt></BkToCstmrStmt></Document>\n';
}

/** A value of COPY's text format: backslash, tab and newline escaped. */
function copyText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');
}

/**
 * The baseline: the same rows loaded with COPY into the transactions table (with its indexes),
 * with the import's id, as the importer would store them, in one transaction. `columns` gives a row's bank reference
 * and the custom columns' JSON (the bank columns of a camt import).
 */
async function copyRows(
  databaseUrl: string,
  organizationId: string,
  datasetId: string,
  rows: number,
  columns: (ordinal: number) => { bankReference: string | null; custom: string },
): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // Every imported row carries its import's id (an undo removes the rows by it), and so does the baseline.
  const importId = randomUUID();
  try {
    const started = performance.now();
    await client.query('BEGIN');
    const copy = client.query(
      copyFrom(
        'COPY transactions (id, organization_id, dataset_id, external_id, timestamp_ms, description, type, reference, bank_reference, currency, amount, custom, import_id) FROM STDIN',
      ),
    );
    await pipeline(
      Readable.from(
        (function* () {
          let chunk = '';
          for (let ordinal = 0; ordinal < rows; ordinal++) {
            const entry = row(ordinal);
            const { bankReference, custom } = columns(ordinal);
            chunk += `${randomUUID()}\t${organizationId}\t${datasetId}\t${entry.id}\t${entry.timestampMilliseconds}\t${copyText(entry.description)}\tcredit transfer\t${entry.reference}\t${bankReference === null ? '\\N' : copyText(bankReference)}\tEUR\t${entry.amount}\t${copyText(custom)}\t${importId}\n`;
            if (chunk.length > 1 << 16) {
              yield chunk;
              chunk = '';
            }
          }
          yield chunk;
        })(),
      ),
      copy,
    );
    await client.query('COMMIT');
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await client.end();
  }
}

/** The resident memory of a process, in bytes (Linux). */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

interface ImportRun {
  rowsPerSecond: number;
  peakBytes: number;
}

/** Sends a file to the import operation as a stream, sampling the server's memory meanwhile. */
async function importThroughHttp(
  baseUrl: string,
  token: string,
  orgId: string,
  datasetId: string,
  filePath: string,
  rows: number,
  serverPid: number,
): Promise<ImportRun> {
  let peakBytes = residentBytes(serverPid);
  const sampler = setInterval(() => (peakBytes = Math.max(peakBytes, residentBytes(serverPid))), MEMORY_SAMPLE_MILLISECONDS);
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}/v1/api/${orgId}/datasets/${datasetId}/imports?fileName=${encodeURIComponent(path.basename(filePath))}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(createReadStream(filePath)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const report = (await response.json()) as { inserted?: number };
    if (response.status !== 201 || report.inserted !== rows)
      throw new Error(`the import of ${path.basename(filePath)} answered ${response.status}: ${JSON.stringify(report).slice(0, 500)}`);
    return { rowsPerSecond: rows / ((performance.now() - started) / 1000), peakBytes };
  } finally {
    clearInterval(sampler);
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function benchImports(): Promise<TableRow[]> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('the imports section needs DATABASE_URL (a PostgreSQL server where it creates its own database)');
  const csvRows = positiveInteger('BENCH_IMPORT_CSV_ROWS', 1_000_000);
  const camtEntries = positiveInteger('BENCH_IMPORT_CAMT_ENTRIES', 200_000);
  const smallRows = positiveInteger('BENCH_IMPORT_SMALL_ROWS', 100_000);
  const directory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-bench-imports-'));
  const databaseUrl = await recreateDatabase(adminUrl, BENCH_DATABASE);
  const port = await freePort();
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false' });
  const database = openDatabase({ databaseUrl, dataDirectory: null, poolSize: 2, statementTimeoutMilliseconds: 600_000 });
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    log(
      `writing a CSV of ${csvRows.toLocaleString('en')} rows, one of ${smallRows.toLocaleString('en')}, and a camt.053 of ${camtEntries.toLocaleString('en')} entries`,
    );
    const csvPath = path.join(directory, 'large.csv');
    const smallCsvPath = path.join(directory, 'small.csv');
    const camtPath = path.join(directory, 'statement.camt053.xml');
    const csvBytes = await writeFile(csvPath, csvLines(csvRows));
    await writeFile(smallCsvPath, csvLines(smallRows));
    const camtBytes = await writeFile(camtPath, camtLines(camtEntries));
    log(`files written: CSV ${megabytes(csvBytes)}, camt.053 ${megabytes(camtBytes)}`);

    await migrate(database);
    const services = createServices(config, database);
    await services.signingKeys.ensureKey();
    const organization = await createOrganization(database, services.apiClients, { name: 'Bench', adminEmail: 'bench@example.com', createdBy: 'bench' });
    const orgId = organization.orgId;
    server = await startServer(port, { DATABASE_URL: databaseUrl, SEED_DEMO: 'false', IMPORT_MAX_BYTES: String(Math.max(csvBytes, camtBytes) * 2) });
    const baseUrl = `http://127.0.0.1:${port}`;
    const tokenResponse = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: organization.client.clientId,
        client_secret: organization.client.clientSecret,
        audience: config.audience,
      }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const call = async (method: string, route: string, body: unknown) => {
      const response = await fetch(`${baseUrl}/v1/api/${orgId}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { id: string };
    };
    const source = await call('POST', '/sources', { name: 'Bench bank' });
    const dataset = async (name: string) => (await call('POST', `/sources/${source.id}/datasets`, { name, columns: [] })).id;
    const serverPid = server.child.pid!;

    // A small import first, so that the idle level is that of a server that has imported.
    const warmupPath = path.join(directory, 'warmup.csv');
    await writeFile(warmupPath, csvLines(1000));
    await importThroughHttp(baseUrl, token, orgId, await dataset('warm-up'), warmupPath, 1000, serverPid);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleBytes = residentBytes(serverPid);
    log(`server idle at ${megabytes(idleBytes)} resident`);

    log(`COPY of ${csvRows.toLocaleString('en')} rows (baseline)`);
    const copyCsvRowsPerSecond = await copyRows(databaseUrl, orgId, await dataset('copy-csv'), csvRows, () => ({ bankReference: null, custom: '{}' }));
    log(`COPY: ${format(copyCsvRowsPerSecond, 'rows/s')}`);
    log(`importing the CSV of ${smallRows.toLocaleString('en')} rows through HTTP`);
    const small = await importThroughHttp(baseUrl, token, orgId, await dataset('csv-small'), smallCsvPath, smallRows, serverPid);
    log(`importing the CSV of ${csvRows.toLocaleString('en')} rows through HTTP`);
    const large = await importThroughHttp(baseUrl, token, orgId, await dataset('csv-large'), csvPath, csvRows, serverPid);
    log(`CSV: ${format(large.rowsPerSecond, 'rows/s')}, peak ${megabytes(large.peakBytes)}`);

    log(`COPY of ${camtEntries.toLocaleString('en')} rows with the bank columns a camt import fills (baseline)`);
    const bankColumns = (ordinal: number) => {
      const entry = row(ordinal);
      const date = Date.UTC(2026, 0, 1) + Math.floor((entry.timestampMilliseconds - TIMESTAMP_START_MILLISECONDS) / 86_400_000) * 86_400_000;
      return {
        bankReference: entry.id,
        custom: JSON.stringify({
          valueDate: date,
          bookingDate: date,
          endToEndId: entry.reference,
          counterpartyName: entry.counterparty,
          accountId: IBAN,
          statementId: 'BENCH-1',
          bankTransactionCode: 'PMNT/RCDT/ESCT',
        }),
      };
    };
    const copyCamtRowsPerSecond = await copyRows(databaseUrl, orgId, await dataset('copy-camt'), camtEntries, bankColumns);
    log(`COPY: ${format(copyCamtRowsPerSecond, 'rows/s')}`);
    log(`importing the camt.053 of ${camtEntries.toLocaleString('en')} entries through HTTP`);
    const camt = await importThroughHttp(baseUrl, token, orgId, await dataset('camt'), camtPath, camtEntries, serverPid);
    log(`camt.053: ${format(camt.rowsPerSecond, 'rows/s')}, peak ${megabytes(camt.peakBytes)}`);

    const ratioRow = (scenario: string, baseline: number, measured: number, target: number): TableRow => ({
      scenario,
      baseline: format(baseline, 'rows/s'),
      measured: format(measured, 'rows/s'),
      ratio: `${(measured / baseline).toFixed(2)}x`,
      target: `>= ${target}x COPY`,
      verdict: measured / baseline >= target ? 'PASS' : 'FAIL',
    });
    const memoryRow = (scenario: string, run: ImportRun): TableRow => ({
      scenario,
      baseline: `${megabytes(idleBytes)} idle`,
      measured: `${megabytes(run.peakBytes)} peak`,
      ratio: `+${megabytes(run.peakBytes - idleBytes)}`,
      target: `<= +${TARGET_GROWTH_MEGABYTES} MB`,
      verdict: run.peakBytes - idleBytes <= TARGET_GROWTH_MEGABYTES * 1024 * 1024 ? 'PASS' : 'FAIL',
    });
    return [
      ratioRow(
        `CSV import, ${csvRows.toLocaleString('en')} rows (${megabytes(csvBytes)}) vs COPY`,
        copyCsvRowsPerSecond,
        large.rowsPerSecond,
        TARGET_CSV_RATIO,
      ),
      ratioRow(
        `camt.053 import, ${camtEntries.toLocaleString('en')} entries (${megabytes(camtBytes)}) vs COPY`,
        copyCamtRowsPerSecond,
        camt.rowsPerSecond,
        TARGET_CAMT_RATIO,
      ),
      memoryRow(`server memory, CSV of ${smallRows.toLocaleString('en')} rows`, small),
      memoryRow(`server memory, CSV of ${csvRows.toLocaleString('en')} rows`, large),
      memoryRow(`server memory, camt.053 of ${camtEntries.toLocaleString('en')} entries`, camt),
    ];
  } finally {
    if (server) await stopServer(server.child);
    await database.close();
    rmSync(directory, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_DATABASE !== '1') await dropDatabase(adminUrl, BENCH_DATABASE);
  }
}

export function printImportTable(rows: TableRow[]): void {
  console.log('\nledger-recon bench: file imports through HTTP on PostgreSQL, against COPY of the same rows');
  printTable(rows);
}
