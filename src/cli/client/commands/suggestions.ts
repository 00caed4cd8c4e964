import { InvalidArgumentError, type Command } from 'commander';
import type { Suggestion } from '@ledger-recon/sdk';
import { uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { chooseFormat, ListWriter, printRecord, writeAll } from '../output.ts';

/** suggestions: list what the rules could not decide alone, confirm or reject it. */
export function registerSuggestionCommands(program: Command): void {
  const suggestions = program.command('suggestions').description('suggestions the rules could not decide alone');
  suggestions
    .command('list', { isDefault: true })
    .description('list suggestions (pending by default)')
    .option('--status <status>', 'pending, confirmed, rejected or superseded', 'pending')
    .option('--dataset <id>', 'only those touching this dataset', uuid)
    .option('--rule <id>', 'only those of this rule', uuid)
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (options: { status: string; dataset?: string; rule?: string; profile?: string; format?: string }) => {
      const writer = new ListWriter<Suggestion>(chooseFormat(options.format), [
        { header: 'id', value: (suggestion) => suggestion.id, maxWidth: 36 },
        { header: 'status', value: (suggestion) => suggestion.status },
        { header: 'reason', value: (suggestion) => suggestion.reason },
        {
          header: 'options',
          value: (suggestion) =>
            suggestion.options
              .map(
                (option, index) =>
                  `${index}: ${(option.links as { originId: string; targetId: string; amount: string | null }[]).map((link) => `${link.originId.slice(0, 8)}>${link.targetId.slice(0, 8)} ${link.amount ?? ''}`).join(', ')}`,
              )
              .join(' | '),
          maxWidth: 90,
        },
        { header: 'created', value: (suggestion) => suggestion.createdAt },
      ]);
      const query = {
        status: options.status as never,
        ...(options.dataset ? { datasetId: options.dataset } : {}),
        ...(options.rule ? { ruleId: options.rule } : {}),
      };
      await writeAll(writer, connect(options.profile).suggestions.list(query));
    });
  suggestions
    .command('confirm <suggestionId>')
    .description('confirm a suggestion: its option becomes a match group')
    .option('--option <index>', 'the option to confirm, when there are several (see the list)', (value: string) => {
      if (!/^\d{1,3}$/.test(value)) throw new InvalidArgumentError(`"${value}" is not an option index (0, 1, ...)`);
      return Number(value);
    })
    .option('--note <text>', 'why; kept in the audit trail')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (suggestionId: string, options: { option?: number; note?: string; profile?: string; format?: string }) => {
      const recon = connect(options.profile);
      if (options.option === undefined) {
        const suggestion = await recon.suggestions.get(uuid(suggestionId));
        if (suggestion.options.length > 1) {
          throw new CliError(
            ExitCode.usage,
            `suggestion ${suggestion.id} has ${suggestion.options.length} options; choose one with --option 0 to ${suggestion.options.length - 1} ("ledger-recon suggestions" shows them numbered)`,
          );
        }
      }
      const answer = await recon.suggestions.confirm(uuid(suggestionId), {
        ...(options.option !== undefined ? { option: options.option } : {}),
        ...(options.note ? { note: options.note } : {}),
      });
      printRecord(chooseFormat(options.format), answer as Record<string, unknown>);
    });
  suggestions
    .command('reject <suggestionId>')
    .description('reject a suggestion: its options are never proposed again')
    .option('--reason <text>', 'why; kept in the audit trail')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (suggestionId: string, options: { reason?: string; profile?: string; format?: string }) => {
      const answer = await connect(options.profile).suggestions.reject(uuid(suggestionId), options.reason ? { reason: options.reason } : {});
      printRecord(chooseFormat(options.format), answer as Record<string, unknown>);
    });
}
