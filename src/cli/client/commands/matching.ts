import { InvalidArgumentError, type Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { readFileSync } from 'node:fs';
import { LedgerReconError, type NewRule, type Rule, type Run, type RunResult, type RunResultKind, type Suggestion } from '../../../../sdk/src/index.ts';
import { collectValues, positiveAmount, uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { chooseFormat, ListWriter, printRecord, writeAll, type Format } from '../output.ts';

/** How often a run is looked at while it runs. */
const RUN_POLL_INTERVAL_MILLISECONDS = 500;
const RESULT_KINDS: RunResultKind[] = ['matches', 'suggestions', 'ambiguous', 'classified', 'bounds', 'unmatched'];

/** An origin or target of a manual match: ID, or ID=AMOUNT to allocate only part of it. */
function sideOf(value: string): { id: string; amount?: string } {
  const [id, amount, extra] = value.split('=');
  if (id === undefined || extra !== undefined) throw new InvalidArgumentError(`"${value}" is not ID or ID=AMOUNT`);
  return { id: uuid(id), ...(amount === undefined ? {} : { amount: positiveAmount(amount) }) };
}

function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new CliError(ExitCode.usage, `cannot read ${JSON.stringify(file)}: there is no such file`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(ExitCode.usage, `${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function describeRun(run: Run): string {
  const lines = [
    `run ${run.id} (${run.mode}) ${run.status}`,
    `  examined ${run.progress.examined} of ${run.progress.total}; matched ${run.totals.matched}, suggested ${run.totals.suggested}, ambiguous ${run.totals.ambiguous}, classified ${run.totals.classified}, bounds hit ${run.totals.boundsHit}`,
  ];
  for (const count of run.counts) {
    lines.push(`  rule "${count.name}" v${count.ruleVersion}: matched ${count.matched}, suggested ${count.suggested}, ambiguous ${count.ambiguous}, classified ${count.classified} (${count.durationMilliseconds} ms)`);
  }
  const total = (run.timings as Record<string, unknown>).totalMilliseconds;
  if (typeof total === 'number') lines.push(`  took ${total} ms`);
  if (run.error) lines.push(`  error: ${run.error.message}`);
  if (run.mode === 'dry-run' && run.status === 'completed' && run.committedAt === null) lines.push(`  nothing was changed; commit it with "ledger-recon runs commit ${run.id}"`);
  return lines.join('\n') + '\n';
}

function printRun(format: Format, run: Run): void {
  process.stdout.write(format === 'json' ? JSON.stringify(run) + '\n' : describeRun(run));
}

/** Waits for a run, with a bar of transactions examined on a terminal; a failed run is exit code 8. */
async function followRun(recon: ReturnType<typeof connect>, runId: string): Promise<Run> {
  const showProgress = process.stderr.isTTY === true;
  const bar = new SingleBar({ format: 'run [{bar}] {percentage}% | {value} of {total} examined | {status}', hideCursor: true, stream: process.stderr, clearOnComplete: true, barsize: 30 });
  let started = false;
  try {
    return await recon.runs.wait(runId, {
      intervalMs: RUN_POLL_INTERVAL_MILLISECONDS,
      onProgress: (run) => {
        if (!showProgress) return;
        if (!started) {
          bar.start(Math.max(run.progress.total, 1), run.progress.examined, { status: run.status });
          started = true;
        }
        bar.setTotal(Math.max(run.progress.total, 1));
        bar.update(run.progress.examined, { status: run.status });
      },
    });
  } finally {
    if (started) bar.stop();
  }
}

export function registerMatchingCommands(program: Command): void {
  program
    .command('match')
    .description('match transactions by hand: one group linking origins to targets (each ID, or ID=AMOUNT to allocate part of it)')
    .requiredOption('--origin <id[=amount]>', 'an origin transaction, repeatable', collectValues(sideOf))
    .requiredOption('--target <id[=amount]>', 'a target transaction, repeatable', collectValues(sideOf))
    .option('--note <text>', 'why; kept in the audit trail')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table or json')
    .action(async (options: { origin: { id: string; amount?: string }[]; target: { id: string; amount?: string }[]; note?: string; profile?: string; format?: string }) => {
      if (options.origin.length > 1 && options.target.length > 1) throw new CliError(ExitCode.usage, 'one origin with several targets, or several origins with one target; for more, match in steps');
      // One link per pair; the amount given on the side that has several is that link's allocation.
      const links = options.origin.flatMap((origin) =>
        options.target.map((target) => ({ originId: origin.id, targetId: target.id, ...((options.target.length > 1 ? target.amount : origin.amount) !== undefined ? { amount: (options.target.length > 1 ? target.amount : origin.amount)! } : {}) })),
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
    });

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

  const rules = program.command('rules').description('matching rules (docs/MATCHING.md)');
  rules
    .command('list', { isDefault: true })
    .description('list the rules in priority order')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (options: { profile?: string; format?: string }) => {
      const writer = new ListWriter<Rule>(chooseFormat(options.format), [
        { header: 'priority', value: (rule) => String(rule.priority) },
        { header: 'id', value: (rule) => rule.id, maxWidth: 36 },
        { header: 'name', value: (rule) => rule.name },
        { header: 'cardinality', value: (rule) => String(rule.cardinality) },
        { header: 'enabled', value: (rule) => (rule.enabled ? 'yes' : 'no') },
        { header: 'on ingest', value: (rule) => (rule.runOnIngest ? 'yes' : 'no') },
        { header: 'version', value: (rule) => String((rule as { version?: number }).version ?? '') },
      ]);
      await writer.write(await connect(options.profile).rules.list());
      await writer.end('no rules yet: write one (docs/MATCHING.md) and "ledger-recon rules apply FILE.json"');
    });

  const validateAll = async (recon: ReturnType<typeof connect>, drafts: NewRule[], existing: Map<string, Rule>) => {
    let valid = true;
    for (const [index, draft] of drafts.entries()) {
      const name = typeof draft.name === 'string' ? draft.name : `#${index + 1}`;
      const current = existing.get(String(draft.name));
      const result = await recon.rules.validate(draft as never, current === undefined ? {} : { ruleId: current.id });
      for (const problem of result.problems) {
        process.stderr.write(`rule "${name}" ${problem.severity}: ${problem.path || '(rule)'}: ${problem.message}\n`);
      }
      valid &&= result.valid;
    }
    return valid;
  };

  const draftsOf = (file: string): NewRule[] => {
    const content = readJsonFile(file);
    const drafts = Array.isArray(content) ? content : [content];
    if (drafts.length === 0 || drafts.some((draft) => typeof draft !== 'object' || draft === null)) throw new CliError(ExitCode.usage, `${file} must hold a rule (a JSON object) or an array of rules`);
    return drafts as NewRule[];
  };

  rules
    .command('validate <file>')
    .description('check the rule (or array of rules) in FILE.json without saving it; every problem with its place and the fix')
    .option('--profile <name>', 'the profile to use')
    .action(async (file: string, options: { profile?: string }) => {
      const recon = connect(options.profile);
      const drafts = draftsOf(file);
      const existing = new Map((await recon.rules.list()).map((rule) => [rule.name, rule]));
      if (!(await validateAll(recon, drafts, existing))) throw new CliError(ExitCode.invalid, `${file} has problems (above); nothing was saved`);
      process.stdout.write(`${file}: ${drafts.length} rule${drafts.length === 1 ? '' : 's'} valid\n`);
    });

  rules
    .command('apply <file>')
    .description('create or update (by name) the rule or rules in FILE.json, after validating all of them')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (file: string, options: { profile?: string; format?: string }) => {
      const recon = connect(options.profile);
      const drafts = draftsOf(file);
      const existing = new Map((await recon.rules.list()).map((rule) => [rule.name, rule]));
      if (!(await validateAll(recon, drafts, existing))) throw new CliError(ExitCode.invalid, `${file} has problems (above); no rule was saved`);
      const applied: { action: string; rule: Rule }[] = [];
      for (const draft of drafts) {
        const current = existing.get(String(draft.name));
        if (current === undefined) applied.push({ action: 'created', rule: await recon.rules.create(draft) });
        else applied.push({ action: 'updated', rule: await recon.rules.update(current.id, draft as never) });
      }
      const writer = new ListWriter<{ action: string; rule: Rule }>(
        chooseFormat(options.format),
        [
          { header: 'action', value: (entry) => entry.action },
          { header: 'id', value: (entry) => entry.rule.id, maxWidth: 36 },
          { header: 'name', value: (entry) => entry.rule.name },
          { header: 'version', value: (entry) => String((entry.rule as { version?: number }).version ?? '') },
        ],
        (entry) => ({ action: entry.action, ...entry.rule }),
      );
      await writer.write(applied);
      await writer.end();
    });

  const runs = program.command('runs').description('runs of the matching rules');
  runs
    .command('start')
    .description('run the rules (a commit run by default; --dry-run to see first), show progress until it ends, then the summary')
    .option('--dry-run', 'record what the rules would do without doing it')
    .option('--rule <id>', 'only this rule, repeatable (default: every enabled rule)', collectValues(uuid))
    .option('--dataset <id>', 'only transactions of this dataset, repeatable', collectValues(uuid))
    .option('--no-wait', 'print the queued run and return at once')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (options: { dryRun?: boolean; rule?: string[]; dataset?: string[]; wait: boolean; profile?: string; format?: string }) => {
      const recon = connect(options.profile);
      const format = chooseFormat(options.format);
      const started = await recon.runs.start({ mode: options.dryRun ? 'dry-run' : 'commit', ...(options.rule ? { ruleIds: options.rule } : {}), ...(options.dataset ? { datasetIds: options.dataset } : {}) });
      if (!options.wait) return printRun(format, started as Run);
      const run = await followRun(recon, started.id);
      printRun(format, run);
      if (run.status === 'failed') throw new CliError(ExitCode.jobFailed, `run ${run.id} failed${run.error ? `: ${run.error.message}` : ''}; nothing of it was kept`);
    });
  runs
    .command('list', { isDefault: true })
    .description('list the runs, newest first')
    .option('--status <status>', 'only runs in this status (queued, running, completed, failed, cancelled, reverted)')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (options: { status?: string; profile?: string; format?: string }) => {
      const writer = new ListWriter<Run>(chooseFormat(options.format), [
        { header: 'id', value: (run) => run.id, maxWidth: 36 },
        { header: 'mode', value: (run) => run.mode },
        { header: 'trigger', value: (run) => String(run.trigger) },
        { header: 'status', value: (run) => run.status },
        { header: 'matched', value: (run) => String(run.totals.matched) },
        { header: 'suggested', value: (run) => String(run.totals.suggested) },
        { header: 'created', value: (run) => run.createdAt },
      ]);
      await writeAll(writer, connect(options.profile).runs.list(options.status ? { status: options.status as Run['status'] } : {}));
    });
  runs
    .command('show <runId>')
    .description('a run: progress, counts per rule, timings')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (runId: string, options: { profile?: string; format?: string }) => {
      printRun(chooseFormat(options.format), await connect(options.profile).runs.get(uuid(runId)));
    });
  runs
    .command('results <runId>')
    .description('what a run decided')
    .option('--kind <kind>', `one of ${RESULT_KINDS.join(', ')}`)
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (runId: string, options: { kind?: string; profile?: string; format?: string }) => {
      if (options.kind !== undefined && !RESULT_KINDS.includes(options.kind as RunResultKind)) throw new CliError(ExitCode.usage, `--kind must be one of ${RESULT_KINDS.join(', ')}`);
      const writer = new ListWriter<RunResult>(chooseFormat(options.format), [
        { header: 'kind', value: (result) => String(result.kind) },
        { header: 'rule', value: (result) => String(result.ruleId ?? ''), maxWidth: 36 },
        { header: 'transactions', value: (result) => (result.transactionIds as string[]).join(' '), maxWidth: 80 },
        { header: 'message', value: (result) => String(result.message ?? ''), maxWidth: 60 },
      ]);
      await writeAll(writer, connect(options.profile).runs.results(uuid(runId), options.kind ? { kind: options.kind as RunResultKind } : {}));
    });
  runs
    .command('commit <runId>')
    .description('carry out a completed dry run (refused, exit 5, when its transactions changed since)')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (runId: string, options: { profile?: string; format?: string }) => {
      const recon = connect(options.profile);
      const answer = (await recon.runs.commit(uuid(runId))) as Run;
      printRun(chooseFormat(options.format), ['completed', 'failed'].includes(answer.status) ? answer : await followRun(recon, answer.id));
    });
  runs
    .command('revert <runId>')
    .description('undo what a committed run did; statuses are restored')
    .option('--note <text>', 'why; kept in the audit trail')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (runId: string, options: { note?: string; profile?: string; format?: string }) => {
      const run = (await connect(options.profile).runs.revert(uuid(runId), options.note ? { note: options.note } : {})) as Run;
      printRun(chooseFormat(options.format), run);
    });
  runs
    .command('cancel <runId>')
    .description('stop a queued or running run')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (runId: string, options: { profile?: string; format?: string }) => {
      printRun(chooseFormat(options.format), (await connect(options.profile).runs.cancel(uuid(runId))) as Run);
    });

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
        { header: 'options', value: (suggestion) => suggestion.options.map((option, index) => `${index}: ${(option.links as { originId: string; targetId: string; amount: string | null }[]).map((link) => `${link.originId.slice(0, 8)}>${link.targetId.slice(0, 8)} ${link.amount ?? ''}`).join(', ')}`).join(' | '), maxWidth: 90 },
        { header: 'created', value: (suggestion) => suggestion.createdAt },
      ]);
      const query = { status: options.status as never, ...(options.dataset ? { datasetId: options.dataset } : {}), ...(options.rule ? { ruleId: options.rule } : {}) };
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
          throw new CliError(ExitCode.usage, `suggestion ${suggestion.id} has ${suggestion.options.length} options; choose one with --option 0 to ${suggestion.options.length - 1} ("ledger-recon suggestions" shows them numbered)`);
        }
      }
      const answer = await recon.suggestions.confirm(uuid(suggestionId), { ...(options.option !== undefined ? { option: options.option } : {}), ...(options.note ? { note: options.note } : {}) });
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
