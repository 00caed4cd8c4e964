import { InvalidArgumentError, type Command } from 'commander';
import type { Exception } from '@ledger-recon/sdk';
import { collectValues, uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { chooseFormat, ListWriter, printRecord, writeAll } from '../output.ts';

const VIEWS = ['mine', 'unassigned', 'overdue', 'on-hold', 'resolved'] as const;
const AGES = ['0-7', '8-30', '31-90', 'over-90'] as const;

function oneOf<T extends string>(choices: readonly T[], what: string) {
  return (value: string): T => {
    if (!(choices as readonly string[]).includes(value)) throw new InvalidArgumentError(`"${value}" is not ${what}; use one of ${choices.join(', ')}`);
    return value as T;
  };
}

function calendarDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new InvalidArgumentError(`"${value}" is not a date; write it as YYYY-MM-DD`);
  return value;
}

/** A date, or "none" to clear it (kept as "none": commander keeps no null an option's parser returns). */
function dateOrNone(value: string): string {
  return value === 'none' ? 'none' : calendarDate(value);
}

/** A user id, or "none" to unassign (kept as "none", as above). */
function userOrNone(value: string): string {
  return value === 'none' ? 'none' : uuid(value);
}

/** What a change of exceptions sends, from the options of `update` and `update-many`. */
function changeOf(options: { assignee?: string; due?: string; hold?: string; release?: boolean }) {
  const change = {
    ...(options.assignee !== undefined ? { assigneeUserId: options.assignee === 'none' ? null : options.assignee } : {}),
    ...(options.due !== undefined ? { dueDate: options.due === 'none' ? null : options.due } : {}),
    ...(options.hold !== undefined ? { holdReason: options.hold } : options.release ? { holdReason: null } : {}),
  };
  if (Object.keys(change).length === 0) throw new InvalidArgumentError('say what to change: --assignee, --due, --hold or --release');
  return change;
}

/** exceptions: the open items of a reconciliation, who follows them up, and how they were resolved. */
export function registerExceptionCommands(program: Command): void {
  const exceptions = program.command('exceptions').description("the exceptions queue of the month-end close: a reconciliation's open items");
  exceptions
    .command('list <reconciliationId>', { isDefault: true })
    .description('list the open items of a reconciliation, oldest first')
    .option('--period-end <date>', 'the last day of the period, YYYY-MM-DD (today by default)', calendarDate)
    .option('--view <view>', `one of ${VIEWS.join(', ')}`, oneOf(VIEWS, 'a view'))
    .option('--age <bucket>', `one of ${AGES.join(', ')} (days)`, oneOf(AGES, 'an age bucket'))
    .option('--assignee <userId>', 'only those assigned to this user', uuid)
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(
      async (reconciliationId: string, options: { periodEnd?: string; view?: string; age?: string; assignee?: string; profile?: string; format?: string }) => {
        const writer = new ListWriter<Exception>(chooseFormat(options.format), [
          { header: 'transaction', value: (item) => item.transactionId, maxWidth: 36 },
          { header: 'date', value: (item) => item.transaction.date },
          { header: 'dataset', value: (item) => item.transaction.datasetName, maxWidth: 30 },
          { header: 'description', value: (item) => item.transaction.description ?? '', maxWidth: 40 },
          { header: 'open', value: (item) => `${item.transaction.openAmount ?? ''} ${item.transaction.currency ?? ''}`.trim() },
          { header: 'age', value: (item) => String(item.ageDays) },
          { header: 'assignee', value: (item) => item.assignee?.email ?? '' },
          { header: 'due', value: (item) => (item.dueDate ? `${item.dueDate}${item.overdue ? ' (overdue)' : ''}` : '') },
          { header: 'hold', value: (item) => item.holdReason ?? '', maxWidth: 40 },
          { header: 'resolution', value: (item) => item.resolution ?? '' },
          { header: 'comments', value: (item) => String(item.commentCount) },
        ]);
        const query = {
          ...(options.periodEnd ? { periodEnd: options.periodEnd } : {}),
          ...(options.view ? { view: options.view as never } : {}),
          ...(options.age ? { age: options.age as never } : {}),
          ...(options.assignee ? { assignee: options.assignee } : {}),
        };
        await writeAll(writer, connect(options.profile).exceptions.list(uuid(reconciliationId), query));
      },
    );
  exceptions
    .command('show <transactionId>')
    .description('one exception with its comments')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (transactionId: string, options: { profile?: string; format?: string }) => {
      const detail = await connect(options.profile).exceptions.get(uuid(transactionId));
      printRecord(chooseFormat(options.format), detail as unknown as Record<string, unknown>);
    });
  exceptions
    .command('update <transactionId>')
    .description('assign an exception, give it a due date, or put it on hold')
    .option('--assignee <userId>', 'the user to give it to, or "none" to unassign', userOrNone)
    .option('--due <date>', 'the due date, YYYY-MM-DD, or "none" to clear it', dateOrNone)
    .option('--hold <reason>', 'put it on hold with this reason ("waiting for the invoice")')
    .option('--release', 'take it off hold')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(
      async (transactionId: string, options: { assignee?: string; due?: string; hold?: string; release?: boolean; profile?: string; format?: string }) => {
        const change = changeOf(options);
        const detail = await connect(options.profile).exceptions.update(uuid(transactionId), change);
        printRecord(chooseFormat(options.format), detail as unknown as Record<string, unknown>);
      },
    );
  exceptions
    .command('assign <userId>')
    .description('assign many exceptions to one user at once, all or nothing ("none" unassigns)')
    .requiredOption('--transaction <id>', 'an exception to assign (repeat the option for more)', collectValues(uuid), [])
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (userId: string, options: { transaction: string[]; profile?: string; format?: string }) => {
      const answer = await connect(options.profile).exceptions.assign({
        transactionIds: options.transaction,
        assigneeUserId: userId === 'none' ? null : uuid(userId),
      });
      printRecord(chooseFormat(options.format), answer as Record<string, unknown>);
    });
  exceptions
    .command('update-many')
    .description('assign many exceptions, give them a due date, or put them on hold, at once, all or nothing')
    .requiredOption('--transaction <id>', 'an exception to change (repeat the option for more, at most 500)', collectValues(uuid), [])
    .option('--assignee <userId>', 'the user to give them to, or "none" to unassign', userOrNone)
    .option('--due <date>', 'the due date, YYYY-MM-DD, or "none" to clear it', dateOrNone)
    .option('--hold <reason>', 'put them on hold with this reason ("waiting for the invoice")')
    .option('--release', 'take them off hold')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(
      async (options: { transaction: string[]; assignee?: string; due?: string; hold?: string; release?: boolean; profile?: string; format?: string }) => {
        const change = changeOf(options);
        const answer = await connect(options.profile).exceptions.updateMany(options.transaction, change);
        printRecord(chooseFormat(options.format), answer as Record<string, unknown>);
      },
    );
  exceptions
    .command('comment <transactionId> <text>')
    .description('add a comment to an exception')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (transactionId: string, text: string, options: { profile?: string; format?: string }) => {
      const comment = await connect(options.profile).exceptions.comment(uuid(transactionId), text);
      printRecord(chooseFormat(options.format), comment as Record<string, unknown>);
    });
  exceptions
    .command('resolve <transactionId>')
    .description('resolve an open exception by a note')
    .requiredOption('--note <text>', 'why nothing more is to be done')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (transactionId: string, options: { note: string; profile?: string; format?: string }) => {
      const detail = await connect(options.profile).exceptions.resolve(uuid(transactionId), options.note);
      printRecord(chooseFormat(options.format), detail as unknown as Record<string, unknown>);
    });
  exceptions
    .command('reopen <transactionId>')
    .description('reopen an exception resolved by a note')
    .option('--note <text>', 'why; kept in the audit trail')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (transactionId: string, options: { note?: string; profile?: string; format?: string }) => {
      const detail = await connect(options.profile).exceptions.reopen(uuid(transactionId), options.note);
      printRecord(chooseFormat(options.format), detail as unknown as Record<string, unknown>);
    });
}
