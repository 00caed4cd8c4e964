import { InvalidArgumentError, type Command } from 'commander';
import { RECONCILIATION_STATUSES, type Dataset, type Source } from '@ledger-recon/sdk';
import { collectValues, uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { chooseFormat, isoTime, ListWriter, printRecord } from '../output.ts';

const COLUMN_TYPES = ['string', 'number', 'money', 'date', 'boolean'];

/** A custom column as NAME:TYPE. */
function columnOf(value: string): { name: string; type: string } {
  const [name, type, extra] = value.split(':');
  if (!name || !type || extra !== undefined || !COLUMN_TYPES.includes(type)) {
    throw new InvalidArgumentError(`"${value}" is not a column; write NAME:TYPE with TYPE one of ${COLUMN_TYPES.join(', ')} (e.g. invoiceNumber:string)`);
  }
  return { name, type };
}

export function registerCatalogCommands(program: Command): void {
  const sources = program.command('sources').description('sources (a bank, a payment provider, a ledger) and their datasets');
  sources
    .command('list', { isDefault: true })
    .description('list the sources')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv (default: table on a terminal, json when piped)')
    .action(async (options: { profile?: string; format?: string }) => {
      const writer = new ListWriter<Source>(chooseFormat(options.format), [
        { header: 'id', value: (source) => source.id, maxWidth: 36 },
        { header: 'name', value: (source) => source.name },
        { header: 'datasets', value: (source) => String(source.datasets.length) },
        { header: 'created', value: (source) => source.createdAt },
      ]);
      await writer.write(await connect(options.profile).sources.list());
      await writer.end('no sources yet: create one with "ledger-recon sources create NAME"');
    });
  sources
    .command('create <name>')
    .description('create a source')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table or json')
    .action(async (name: string, options: { profile?: string; format?: string }) => {
      const created = await connect(options.profile).sources.create({ name });
      printRecord(chooseFormat(options.format), { id: created.id, name: created.name });
    });

  const datasets = program.command('datasets').description('datasets: the transactions of one account or ledger');
  datasets
    .command('list', { isDefault: true })
    .description('list the datasets with their counts per status')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv (default: table on a terminal, json when piped)')
    .action(async (options: { profile?: string; format?: string }) => {
      const recon = connect(options.profile);
      const all = await recon.sources.list();
      const sourceNames = new Map(all.map((source) => [source.id, source.name]));
      const writer = new ListWriter<Dataset>(chooseFormat(options.format), [
        { header: 'id', value: (dataset) => dataset.id, maxWidth: 36 },
        { header: 'source', value: (dataset) => sourceNames.get(dataset.sourceId) ?? '' },
        { header: 'name', value: (dataset) => dataset.name },
        { header: 'transactions', value: (dataset) => String(dataset.transactionCount) },
        ...RECONCILIATION_STATUSES.map((status) => ({ header: status, value: (dataset: Dataset) => String(dataset.statusCounts[status]) })),
        { header: 'latest', value: (dataset) => isoTime(dataset.latestTimestamp) },
      ]);
      await writer.write(all.flatMap((source) => source.datasets));
      await writer.end('no datasets yet: create one with "ledger-recon datasets create --source ID --name NAME"');
    });
  datasets
    .command('create')
    .description('create a dataset in a source')
    .requiredOption('--source <id>', 'the source (see "ledger-recon sources")', uuid)
    .requiredOption('--name <name>', "the dataset's name")
    .option('--column <name:type>', `a custom column, repeatable; types: ${COLUMN_TYPES.join(', ')}`, collectValues(columnOf))
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table or json')
    .action(async (options: { source: string; name: string; column?: { name: string; type: string }[]; profile?: string; format?: string }) => {
      const created = await connect(options.profile).datasets.create(options.source, { name: options.name, columns: (options.column ?? []) as never });
      printRecord(chooseFormat(options.format), {
        id: created.id,
        name: created.name,
        sourceId: options.source,
        columns: (options.column ?? []).map((column) => `${column.name}:${column.type}`).join(', '),
      });
    });
}
