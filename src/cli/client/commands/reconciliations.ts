import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Download, Reconciliation, ReconciliationStatement } from '@ledger-recon/sdk';
import { connect } from '../connect.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { chooseFormat, ListWriter, printRecord, writeAll } from '../output.ts';

type StatementItem = ReconciliationStatement['ledgerNotInBank']['items'][number];

const WIDTH = 78;

/** An amount in a right-aligned column of the form. */
function amountLine(label: string, amount: string, currency: string, indent = ''): string {
  const figure = `${amount} ${currency}`;
  const text = `${indent}${label}`;
  return `${text.padEnd(Math.max(WIDTH - figure.length - 1, text.length + 1))} ${figure}`;
}

function itemLines(items: readonly StatementItem[], currency: string): string[] {
  return items.map((item) => {
    const words = [
      item.date,
      item.description ?? '',
      item.reference ? `(${item.reference})` : '',
      item.reason === 'open' ? '' : item.reason === 'partial' ? '[partial]' : '[matched after]',
    ]
      .filter((word) => word !== '')
      .join(' ');
    return amountLine(words.length > 56 ? `${words.slice(0, 55)}…` : words, item.countedAmount, currency, '      ');
  });
}

/** The statement as an accountant's form: each line, its items beneath, the totals to the right. */
export function statementText(statement: ReconciliationStatement): string {
  const currency = statement.reconciliation.currency;
  const rule = '-'.repeat(WIDTH);
  const lines = [
    `${statement.organizationName}`,
    `Bank reconciliation statement: ${statement.reconciliation.name}`,
    `Period ${statement.periodStart} to ${statement.periodEnd}    bank: ${statement.reconciliation.bankDatasetNames.join(', ')}    ledger: ${statement.reconciliation.ledgerDatasetNames.join(', ')}`,
    rule,
    amountLine(
      statement.bankBalance.source === 'statement'
        ? `Balance per bank at ${statement.periodEnd} (statement of ${statement.bankBalance.statementDate})`
        : `Balance per bank at ${statement.periodEnd} (no statement: computed from the entries)`,
      statement.bankBalance.amount,
      currency,
    ),
    amountLine('Add/less: items in the ledger not yet in the bank', statement.ledgerNotInBank.total, currency, '  '),
    ...itemLines(statement.ledgerNotInBank.items, currency),
    amountLine('Less/add: items in the bank not yet in the ledger', statement.bankNotInLedger.total, currency, '  '),
    ...itemLines(statement.bankNotInLedger.items, currency),
    amountLine('Adjusted bank balance', statement.adjustedBankBalance, currency),
    amountLine('Less: adjustments (fee, fx, rounding, write-off)', statement.adjustments.total, currency, '  '),
    ...statement.adjustments.items.map((item) =>
      amountLine(`${item.date} ${item.reason} ${item.description}${item.bankReference ? ` (${item.bankReference})` : ''}`, item.amount, currency, '      '),
    ),
    amountLine(
      `Balance per ledger at ${statement.periodEnd} (opening ${statement.ledgerBalance.openingBalance} on ${statement.ledgerBalance.openingDate})`,
      statement.ledgerBalance.amount,
      currency,
    ),
    rule,
    amountLine('Unexplained difference', statement.unexplainedDifference, currency),
  ];
  const apart = [
    ...statement.setApart.informative.map((item) => ({ ...item, kind: 'informative' })),
    ...statement.setApart.outOfScope.map((item) => ({ ...item, kind: 'out of scope' })),
  ];
  if (apart.length > 0) {
    lines.push('', 'Set apart (on no line):');
    for (const item of apart) lines.push(amountLine(`${item.date} ${item.description ?? ''} [${item.kind}]`, item.amount, currency, '      '));
  }
  const signOff = statement.signOff;
  lines.push('', `State: ${signOff.state}`);
  if (signOff.preparedBy) lines.push(`Prepared by ${signOff.preparedBy} at ${signOff.preparedAt}${signOff.preparerNote ? `: ${signOff.preparerNote}` : ''}`);
  if (signOff.approvedBy) lines.push(`Approved by ${signOff.approvedBy} at ${signOff.approvedAt}`);
  return lines.join('\n') + '\n';
}

/** Writes a downloaded file where asked, or under the name the server gave it, and says where. */
async function saveDownload(file: Download, output: string | undefined, fallback: string): Promise<void> {
  const target = output ?? file.filename ?? fallback;
  await writeFile(target, Buffer.from(await file.blob.arrayBuffer()));
  process.stderr.write(`wrote ${target}\n`);
}

function checkPeriodEnd(periodEnd: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(periodEnd))
    throw new CliError(ExitCode.usage, `the period end must be a date written YYYY-MM-DD, such as 2026-03-31; got ${JSON.stringify(periodEnd)}`);
  return periodEnd;
}

function dataset(list: string | undefined, option: string): string[] {
  const ids = (list ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.length === 0) throw new CliError(ExitCode.usage, `give ${option} with one or more dataset ids, separated by commas`);
  return ids;
}

/** reconciliations: month-end close (docs/CLOSE.md). */
export function registerReconciliationCommands(program: Command): void {
  const reconciliations = program.command('reconciliations').description('month-end close: reconciliations, statements and sign-off (docs/CLOSE.md)');
  reconciliations
    .command('list', { isDefault: true })
    .description('list the reconciliations')
    .option('--archived', 'include archived reconciliations')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (options: { profile?: string; format?: string; archived?: boolean }) => {
      const writer = new ListWriter<Reconciliation>(chooseFormat(options.format), [
        { header: 'id', value: (row) => row.id, maxWidth: 36 },
        { header: 'name', value: (row) => row.name },
        { header: 'currency', value: (row) => row.currency },
        { header: 'opening', value: (row) => `${row.ledgerOpeningBalance} on ${row.ledgerOpeningDate}` },
        { header: 'months', value: (row) => String(row.periodMonths) },
        { header: 'archived', value: (row) => (row.archived ? 'yes' : 'no') },
      ]);
      await writeAll(writer, connect(options.profile).reconciliations.list({ includeArchived: options.archived === true }));
    });

  reconciliations
    .command('create <name>')
    .description('pair bank datasets with ledger datasets of one currency')
    .requiredOption('--currency <code>', 'the currency, e.g. EUR')
    .requiredOption('--bank <ids>', 'the bank dataset ids, separated by commas')
    .requiredOption('--ledger <ids>', 'the ledger dataset ids, separated by commas')
    .requiredOption('--opening-date <date>', "the date of the ledger's opening balance, YYYY-MM-DD")
    .option('--opening-balance <amount>', "the ledger's balance at the start of the opening date", '0')
    .option('--months <n>', 'the length of a period in months', '1')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table or json')
    .action(
      async (
        name: string,
        options: {
          currency: string;
          bank: string;
          ledger: string;
          openingDate: string;
          openingBalance: string;
          months: string;
          profile?: string;
          format?: string;
        },
      ) => {
        const months = Number(options.months);
        if (!Number.isInteger(months) || months < 1 || months > 12)
          throw new CliError(ExitCode.usage, `--months must be a whole number from 1 to 12; got ${options.months}`);
        const created = await connect(options.profile).reconciliations.create({
          name,
          currency: options.currency,
          bankDatasetIds: dataset(options.bank, '--bank'),
          ledgerDatasetIds: dataset(options.ledger, '--ledger'),
          ledgerOpeningBalance: options.openingBalance,
          ledgerOpeningDate: options.openingDate,
          periodMonths: months,
        });
        printRecord(chooseFormat(options.format), created as unknown as Record<string, unknown>);
      },
    );

  reconciliations
    .command('statement <reconciliationId> <periodEnd>')
    .description(
      "the reconciliation statement at a period's last day (YYYY-MM-DD), as a form, as JSON with --json, or as a file with --format pdf, xlsx or csv (its items)",
    )
    .option('--json', 'print the statement as JSON')
    .option('--format <format>', 'download the statement as pdf, xlsx or csv (its items)')
    .option('--output <file>', 'where to write the downloaded file; the name the server gives it by default')
    .option('--profile <name>', 'the profile to use')
    .action(async (reconciliationId: string, periodEnd: string, options: { json?: boolean; format?: string; output?: string; profile?: string }) => {
      const end = checkPeriodEnd(periodEnd);
      if (options.format !== undefined) {
        if (!['pdf', 'xlsx', 'csv'].includes(options.format))
          throw new CliError(ExitCode.usage, `--format must be pdf, xlsx or csv; got ${JSON.stringify(options.format)}`);
        const file = await connect(options.profile).reconciliations.statementFile(reconciliationId, end, options.format as 'pdf' | 'xlsx' | 'csv');
        await saveDownload(file, options.output, `statement-${end}.${options.format}`);
        return;
      }
      if (options.output !== undefined) throw new CliError(ExitCode.usage, '--output goes with --format pdf, xlsx or csv');
      const statement = await connect(options.profile).reconciliations.statement(reconciliationId, end);
      process.stdout.write(options.json ? JSON.stringify(statement, null, 2) + '\n' : statementText(statement));
    });

  reconciliations
    .command('journal-entries <reconciliationId> <periodEnd>')
    .description("the journal entries a period's adjustments propose, against the reconciliation's accounts; --output writes them as CSV")
    .option('--output <file>', "write the entries as CSV for the ledger's journal import")
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (reconciliationId: string, periodEnd: string, options: { output?: string; profile?: string; format?: string }) => {
      const end = checkPeriodEnd(periodEnd);
      const recon = connect(options.profile);
      if (options.output !== undefined) {
        await saveDownload(await recon.reconciliations.journalEntriesFile(reconciliationId, end), options.output, `journal-entries-${end}.csv`);
        return;
      }
      type Entry = Awaited<ReturnType<typeof recon.reconciliations.journalEntries>>['entries'][number];
      const writer = new ListWriter<Entry>(chooseFormat(options.format), [
        { header: 'journal', value: (row) => row.journalNumber },
        { header: 'date', value: (row) => row.date },
        { header: 'debit', value: (row) => row.debitAccount },
        { header: 'credit', value: (row) => row.creditAccount },
        { header: 'amount', value: (row) => `${row.amount} ${row.currency}` },
        { header: 'reason', value: (row) => row.reason },
      ]);
      await writer.write((await recon.reconciliations.journalEntries(reconciliationId, end)).entries);
      await writer.end('no adjustments to post in this period');
    });

  reconciliations
    .command('periods <reconciliationId>')
    .description('the periods, latest first, with their state, difference and who signed')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (reconciliationId: string, options: { profile?: string; format?: string }) => {
      type Period = Awaited<ReturnType<ReturnType<typeof connect>['reconciliations']['periods']>>[number];
      const writer = new ListWriter<Period>(chooseFormat(options.format), [
        { header: 'period end', value: (row) => row.periodEnd },
        { header: 'state', value: (row) => row.state },
        { header: 'difference', value: (row) => row.unexplainedDifference ?? '' },
        { header: 'prepared by', value: (row) => row.preparedBy ?? '' },
        { header: 'approved by', value: (row) => row.approvedBy ?? '' },
      ]);
      await writer.write(await connect(options.profile).reconciliations.periods(reconciliationId));
      await writer.end('no periods yet');
    });

  const signCommand = (step: 'prepare' | 'approve' | 'reopen', description: string, textOption: { flag: string; help: string; required: boolean }) =>
    reconciliations
      .command(`${step} <reconciliationId> <periodEnd>`)
      .description(description)
      [textOption.required ? 'requiredOption' : 'option'](textOption.flag, textOption.help)
      .option('--profile <name>', 'the profile to use')
      .option('--format <format>', 'table or json')
      .action(async (reconciliationId: string, periodEnd: string, options: { note?: string; reason?: string; profile?: string; format?: string }) => {
        const recon = connect(options.profile);
        const end = checkPeriodEnd(periodEnd);
        const period =
          step === 'prepare'
            ? await recon.reconciliations.prepare(reconciliationId, end, { note: options.note ?? '' })
            : step === 'approve'
              ? await recon.reconciliations.approve(reconciliationId, end, options.note === undefined ? {} : { note: options.note })
              : await recon.reconciliations.reopen(reconciliationId, end, { reason: options.reason ?? '' });
        const { history: _history, ...record } = period;
        printRecord(chooseFormat(options.format), record as Record<string, unknown>);
      });
  signCommand('prepare', 'prepare a period whose unexplained difference is 0.00, storing its statement', {
    flag: '--note <text>',
    help: "the preparer's note",
    required: true,
  });
  signCommand('approve', 'approve a prepared period (an Administrator or a Reviewer who did not prepare it)', {
    flag: '--note <text>',
    help: "the approver's note",
    required: false,
  });
  signCommand('reopen', 'reopen a prepared or approved period (Administrators), keeping the earlier sign-off', {
    flag: '--reason <text>',
    help: 'why the period is reopened',
    required: true,
  });
}
