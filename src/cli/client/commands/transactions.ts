import { InvalidArgumentError, type Command } from 'commander';
import type { Dataset, LedgerRecon, SearchQuery, Transaction, TransactionQuery } from '@ledger-recon/sdk';
import { collectValues, fromTime, statuses, toTime, uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { chooseFormat, isoTime, ListWriter, writeAll, type Column, type Format } from '../output.ts';

/** A --search: a SearchQuery (or an array of them) as JSON, or text to find in the description. */
function searchOf(value: string): SearchQuery[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new InvalidArgumentError(
        `not valid JSON (${(error as Error).message}); give a SearchQuery such as '{"path":"amount","search":{"type":"money","value":{"start":"100"}}}' or plain text`,
      );
    }
    return (Array.isArray(parsed) ? parsed : [parsed]) as SearchQuery[];
  }
  return [{ path: 'description', search: { type: 'string', value: trimmed } }];
}

function columnNames(value: string): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new InvalidArgumentError('give column names separated by commas, e.g. reference,valueDate');
  return names;
}

interface QueryOptions {
  dataset: string;
  status?: string[][];
  search?: SearchQuery[][];
  from?: number;
  to?: number;
  columns?: string[];
  limit?: number;
  profile?: string;
  format?: string;
}

function addQueryOptions(command: Command): Command {
  return command
    .requiredOption('--dataset <id>', 'the dataset (see "ledger-recon datasets")', uuid)
    .option('--status <statuses>', 'only these statuses, comma-separated: none, partial, full, informative, out-of-scope; repeatable', collectValues(statuses))
    .option('--search <query>', 'text to find in the description, or a SearchQuery as JSON (docs/API.md); repeatable, all must hold', collectValues(searchOf))
    .option('--from <time>', 'from this time: 2024-03-01, an ISO date-time or epoch ms', fromTime)
    .option('--to <time>', 'up to this time (a date includes the whole day)', toTime)
    .option('--columns <names>', 'more columns of the dataset to show, comma-separated', columnNames)
    .option('--profile <name>', 'the profile to use');
}

/** The standard fields every listing shows, and the ones asked for. */
const STANDARD_COLUMNS = ['amount', 'currency', 'reference'];

function queryOf(options: QueryOptions, extraColumns: string[]): TransactionQuery {
  const search: SearchQuery[] = (options.search ?? []).flat();
  const wanted = (options.status ?? []).flat();
  if (wanted.length > 0) search.push({ path: 'reconciliationStatus', search: { type: 'string', value: [...new Set(wanted)], exact: true } });
  const columns = [...new Set([...STANDARD_COLUMNS, ...extraColumns])];
  return {
    datasetId: options.dataset,
    ...(options.from !== undefined ? { from: options.from } : {}),
    ...(options.to !== undefined ? { to: options.to } : {}),
    ...(search.length > 0 ? { search } : {}),
    columns: columns.map((path) => ({ path })),
  };
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function counterparts(transaction: Transaction): string {
  return [...transaction.incomingMatches.map((match) => match.targetId), ...transaction.outgoingMatches.map((match) => match.originId)].join(' ');
}

function columnsFor(extra: string[], forExport: boolean, dateColumns: ReadonlySet<string>, numberColumns: ReadonlySet<string>): Column<Transaction>[] {
  // Date columns hold epoch ms in the API; a person reads them as ISO 8601 (UTC).
  const field = (name: string) => (transaction: Transaction) => {
    const value = (transaction as Record<string, unknown>)[name];
    return dateColumns.has(name) && typeof value === 'number' ? isoTime(value) : text(value);
  };
  return [
    { header: 'id', value: (transaction) => transaction.id, maxWidth: 36 },
    { header: 'time', value: (transaction) => isoTime(transaction.timestamp), maxWidth: 24 },
    { header: 'amount', value: field('amount'), kind: 'number' },
    { header: 'currency', value: field('currency') },
    { header: 'status', value: (transaction) => transaction.reconciliationStatus },
    { header: 'description', value: (transaction) => transaction.description ?? '', maxWidth: 50 },
    { header: 'reference', value: field('reference') },
    ...(forExport ? [{ header: 'type', value: (transaction: Transaction) => transaction.type ?? '' }] : []),
    ...extra
      .filter((name) => !STANDARD_COLUMNS.includes(name))
      .map((name): Column<Transaction> => ({ header: name, value: field(name), kind: numberColumns.has(name) ? 'number' : 'text' })),
    forExport
      ? { header: 'matchedWith', value: counterparts }
      : { header: 'matches', value: (transaction: Transaction) => String(transaction.incomingMatches.length + transaction.outgoingMatches.length) },
  ];
}

async function stream(
  recon: LedgerRecon,
  options: QueryOptions,
  format: Format,
  extraColumns: string[],
  forExport: boolean,
  dataset: Dataset | null,
): Promise<void> {
  const dateColumns = new Set((dataset?.columns ?? []).filter((column) => column.type === 'date').map((column) => column.name));
  const numberColumns = new Set((dataset?.columns ?? []).filter((column) => column.type === 'number' || column.type === 'money').map((column) => column.name));
  const writer = new ListWriter(format, columnsFor(extraColumns, forExport, dateColumns, numberColumns));
  const items = recon.transactions.list(queryOf(options, extraColumns));
  const count = await writeAll(writer, options.limit === undefined ? items : limited(items, options.limit));
  if (process.stderr.isTTY && format !== 'table') process.stderr.write(`${count} transaction${count === 1 ? '' : 's'}\n`);
}

async function* limited<T>(items: AsyncIterable<T>, limit: number): AsyncGenerator<T> {
  let yielded = 0;
  if (limit <= 0) return;
  for await (const item of items) {
    yield item;
    yielded += 1;
    if (yielded >= limit) return;
  }
}

export function registerTransactionCommands(program: Command): void {
  addQueryOptions(program.command('transactions'))
    .description("list a dataset's transactions, every page, as a table on a terminal, JSON when piped, or CSV")
    .option('--format <format>', 'table, json or csv (default: table on a terminal, json when piped)')
    .option('--limit <count>', 'stop after this many', (value: string) => {
      if (!/^\d{1,9}$/.test(value)) throw new InvalidArgumentError(`"${value}" is not a whole number`);
      return Number(value);
    })
    .action(async (options: QueryOptions) => {
      const recon = connect(options.profile);
      const format = chooseFormat(options.format);
      // The column types are needed only to print chosen date columns as dates and keep numbers numbers in CSV.
      const dataset = options.columns !== undefined && format !== 'json' ? await recon.datasets.get(options.dataset) : null;
      await stream(recon, options, format, options.columns ?? [], false, dataset);
    });

  addQueryOptions(program.command('export'))
    .description("write a dataset's transactions as CSV (every column of the dataset and the ids each is matched with): export --dataset ID > file.csv")
    .action(async (options: QueryOptions) => {
      const recon = connect(options.profile);
      const dataset = await recon.datasets.get(options.dataset);
      const custom = dataset.columns.filter((column) => !column.standard).map((column) => column.name);
      await stream(recon, options, 'csv', [...custom, ...(options.columns ?? [])], true, dataset);
    });
}
