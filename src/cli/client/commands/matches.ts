import { InvalidArgumentError, type Command } from 'commander';
import { LedgerReconError } from '@ledger-recon/sdk';
import { collectValues, positiveAmount, uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { chooseFormat, ListWriter } from '../output.ts';

/** An origin or target of a manual match: ID, or ID=AMOUNT to allocate only part of it. */
function sideOf(value: string): { id: string; amount?: string } {
  const [id, amount, extra] = value.split('=');
  if (id === undefined || extra !== undefined) throw new InvalidArgumentError(`"${value}" is not ID or ID=AMOUNT`);
  return { id: uuid(id), ...(amount === undefined ? {} : { amount: positiveAmount(amount) }) };
}

/** match and unmatch: matching transactions by hand, and undoing a match or a match group. */
export function registerMatchCommands(program: Command): void {
  program
    .command('match')
    .description('match transactions by hand: one group linking origins to targets (each ID, or ID=AMOUNT to allocate part of it)')
    .requiredOption('--origin <id[=amount]>', 'an origin transaction, repeatable', collectValues(sideOf))
    .requiredOption('--target <id[=amount]>', 'a target transaction, repeatable', collectValues(sideOf))
    .option('--note <text>', 'why; kept in the audit trail')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table or json')
    .action(
      async (options: {
        origin: { id: string; amount?: string }[];
        target: { id: string; amount?: string }[];
        note?: string;
        profile?: string;
        format?: string;
      }) => {
        if (options.origin.length > 1 && options.target.length > 1)
          throw new CliError(ExitCode.usage, 'one origin with several targets, or several origins with one target; for more, match in steps');
        // One link per pair; the amount given on the side that has several is that link's allocation.
        const links = options.origin.flatMap((origin) =>
          options.target.map((target) => ({
            originId: origin.id,
            targetId: target.id,
            ...((options.target.length > 1 ? target.amount : origin.amount) !== undefined
              ? { amount: (options.target.length > 1 ? target.amount : origin.amount)! }
              : {}),
          })),
        );
        const created = await connect(options.profile)
          .matches.create({ links, ...(options.note ? { note: options.note } : {}) })
          .catch((error: unknown) => {
            // The API names the link by its place in the body; on the command line it is the pair given.
            if (error instanceof LedgerReconError && (error.code === 409 || error.code === 422)) {
              throw new CliError(
                error.code === 409 ? ExitCode.conflict : ExitCode.invalid,
                `${error.message}\nunmatch what holds it first ("ledger-recon transactions" shows the matches; "ledger-recon unmatch MATCH_ID"), or allocate part with ID=AMOUNT`,
              );
            }
            throw error;
          });
        const format = chooseFormat(options.format);
        if (format === 'json') process.stdout.write(JSON.stringify(created) + '\n');
        else {
          const writer = new ListWriter<{ id: string; originId: string; targetId: string; amount: string | null }>(format, [
            { header: 'match', value: (match) => match.id, maxWidth: 36 },
            { header: 'origin', value: (match) => match.originId, maxWidth: 36 },
            { header: 'target', value: (match) => match.targetId, maxWidth: 36 },
            { header: 'amount', value: (match) => match.amount ?? '' },
          ]);
          await writer.write((created as { matches: { id: string; originId: string; targetId: string; amount: string | null }[] }).matches);
          await writer.end();
        }
      },
    );

  program
    .command('unmatch [matchId]')
    .description('remove a match (or, with --group, every match of a group); the statuses follow')
    .option('--group <id>', 'remove the whole match group', uuid)
    .option('--note <text>', 'why; kept in the audit trail')
    .option('--profile <name>', 'the profile to use')
    .action(async (matchId: string | undefined, options: { group?: string; note?: string; profile?: string }) => {
      if ((matchId === undefined) === (options.group === undefined)) throw new CliError(ExitCode.usage, 'give a MATCH_ID or --group GROUP_ID (one of them)');
      const recon = connect(options.profile);
      if (options.group !== undefined) await recon.matchGroups.delete(options.group, { note: options.note });
      else await recon.matches.delete(uuid(matchId!), { note: options.note });
      process.stdout.write(options.group !== undefined ? `match group ${options.group} removed\n` : `match ${matchId} removed\n`);
    });
}
