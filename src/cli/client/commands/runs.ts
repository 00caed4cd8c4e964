import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { describeTransaction, evidenceSentences, type Run, type RunResult, type RunResultKind, type RunResultTransaction } from '@ledger-recon/sdk';
import { collectValues, uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { chooseFormat, ListWriter, writeAll, type Format } from '../output.ts';

/** How often a run is looked at while it runs. */
const RUN_POLL_INTERVAL_MILLISECONDS = 500;
const RESULT_KINDS: RunResultKind[] = ['matches', 'suggestions', 'ambiguous', 'classified', 'bounds', 'unmatched'];

const DAY_MILLISECONDS = 86_400_000;

/** A booking as the bank wrote it: the calendar date, with the time only when it has one (UTC). */
function bookingOf(timestamp: number): string {
  const iso = new Date(timestamp).toISOString();
  return timestamp % DAY_MILLISECONDS === 0 ? iso.slice(0, 10) : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** The links of a result, or of its first option (a suggestion, an ambiguity). */
function linksOf(result: RunResult): { originId: string; targetId: string }[] {
  const options = (result.options as { links?: unknown }[] | null) ?? [];
  return ((result.links ?? options[0]?.links ?? []) as { originId: string; targetId: string }[]) ?? [];
}

/** One side of a result in words: each transaction's date, amount and description. */
function sideText(result: RunResult, side: 'origin' | 'target'): string {
  const transactions = result.transactions ?? [];
  const links = linksOf(result);
  const ids = links.length > 0 ? new Set(links.map((link) => (side === 'origin' ? link.originId : link.targetId))) : null;
  const chosen: RunResultTransaction[] =
    ids === null ? (side === 'origin' ? transactions.slice(0, 1) : []) : transactions.filter((transaction) => ids.has(transaction.id));
  const shown = chosen.slice(0, 3).map((transaction) => `${bookingOf(transaction.timestamp)} ${describeTransaction(transaction)}`);
  return chosen.length > 3 ? `${shown.join('; ')}; and ${chosen.length - 3} more` : shown.join('; ');
}

/** The evidence of a result (of its first option for a suggestion) as sentences. */
function resultEvidence(result: RunResult): string {
  const options = (result.options as { evidence?: unknown; adjustment?: unknown }[] | null) ?? [];
  const evidence = result.kind === 'suggestions' || result.kind === 'suggestion' ? options[0]?.evidence : result.evidence;
  const [link] = linksOf(result);
  const byId = new Map((result.transactions ?? []).map((transaction) => [transaction.id, transaction]));
  return evidenceSentences(evidence, {
    transactions: result.transactions ?? [],
    pair: link ?? null,
    originName: link ? byId.get(link.originId)?.datasetName : null,
    targetName: link ? byId.get(link.targetId)?.datasetName : null,
  })
    .map((sentence) => sentence.text)
    .join('; ');
}

function describeRun(run: Run): string {
  const lines = [
    `run ${run.id} (${run.mode}) ${run.status}`,
    `  examined ${run.progress.examined} of ${run.progress.total}; matched ${run.totals.matched}, suggested ${run.totals.suggested}, ambiguous ${run.totals.ambiguous}, classified ${run.totals.classified}, bounds hit ${run.totals.boundsHit}`,
  ];
  if (run.totals.closedPeriodSkipped > 0) {
    lines.push(`  left alone ${run.totals.closedPeriodSkipped} open transaction(s) dated in closed periods (reopen a period to match them)`);
  }
  for (const count of run.counts) {
    lines.push(
      `  rule "${count.name}" v${count.ruleVersion}: matched ${count.matched}, suggested ${count.suggested}, ambiguous ${count.ambiguous}, classified ${count.classified} (${count.durationMilliseconds} ms)`,
    );
  }
  const total = (run.timings as Record<string, unknown>).totalMilliseconds;
  if (typeof total === 'number') lines.push(`  took ${total} ms`);
  if (run.error) lines.push(`  error: ${run.error.message}`);
  if (run.mode === 'dry-run' && run.status === 'completed' && run.committedAt === null)
    lines.push(`  nothing was changed; commit it with "ledger-recon runs commit ${run.id}", or throw it away with "ledger-recon runs discard ${run.id}"`);
  return lines.join('\n') + '\n';
}

function printRun(format: Format, run: Run): void {
  process.stdout.write(format === 'json' ? JSON.stringify(run) + '\n' : describeRun(run));
}

/** Waits for a run, with a bar of transactions examined on a terminal; a failed run is exit code 8. */
async function followRun(recon: ReturnType<typeof connect>, runId: string): Promise<Run> {
  const showProgress = process.stderr.isTTY === true;
  const bar = new SingleBar({
    format: 'run [{bar}] {percentage}% | {value} of {total} examined | {status}',
    hideCursor: true,
    stream: process.stderr,
    clearOnComplete: true,
    barsize: 30,
  });
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

/** runs: start the matching rules, follow a run, read what it decided, commit, revert or cancel it. */
export function registerRunCommands(program: Command): void {
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
      const started = await recon.runs.start({
        mode: options.dryRun ? 'dry-run' : 'commit',
        ...(options.rule ? { ruleIds: options.rule } : {}),
        ...(options.dataset ? { datasetIds: options.dataset } : {}),
      });
      if (!options.wait) return printRun(format, started as Run);
      const run = await followRun(recon, started.id);
      printRun(format, run);
      if (run.status === 'failed')
        throw new CliError(ExitCode.jobFailed, `run ${run.id} failed${run.error ? `: ${run.error.message}` : ''}; nothing of it was kept`);
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
    .description('what a run decided: each result with its transactions by date, amount and description, and the evidence in words')
    .option('--kind <kind>', `one of ${RESULT_KINDS.join(', ')}; all of them by default`)
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (runId: string, options: { kind?: string; profile?: string; format?: string }) => {
      if (options.kind !== undefined && !RESULT_KINDS.includes(options.kind as RunResultKind))
        throw new CliError(ExitCode.usage, `--kind must be one of ${RESULT_KINDS.join(', ')}`);
      const recon = connect(options.profile);
      const run = await recon.runs.get(uuid(runId));
      const ruleNames = new Map(run.counts.map((count) => [`${count.ruleId}:${count.ruleVersion}`, count.name]));
      const writer = new ListWriter<RunResult>(chooseFormat(options.format), [
        { header: 'kind', value: (result) => String(result.kind) },
        { header: 'rule', value: (result) => ruleNames.get(`${String(result.ruleId)}:${String(result.ruleVersion)}`) ?? '', maxWidth: 30 },
        { header: 'transaction', value: (result) => sideText(result, 'origin'), maxWidth: 60 },
        { header: 'counterpart', value: (result) => sideText(result, 'target'), maxWidth: 60 },
        { header: 'evidence', value: (result) => resultEvidence(result), maxWidth: 100 },
        { header: 'message', value: (result) => String(result.message ?? ''), maxWidth: 60 },
      ]);
      const kinds = options.kind ? [options.kind as RunResultKind] : RESULT_KINDS;
      async function* everyKind() {
        for (const kind of kinds) yield* recon.runs.results(run.id, { kind, include: 'transactions' });
      }
      await writeAll(writer, everyKind());
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
    .command('discard <runId>')
    .description('throw away a dry run that was never committed (a committed run is reverted instead)')
    .option('--profile <name>', 'the profile to use')
    .action(async (runId: string, options: { profile?: string }) => {
      const id = uuid(runId);
      await connect(options.profile).runs.discard(id);
      process.stdout.write(`run ${id} discarded: the dry run and its results are removed; nothing else had changed\n`);
    });
  runs
    .command('cancel <runId>')
    .description('stop a queued or running run')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (runId: string, options: { profile?: string; format?: string }) => {
      printRun(chooseFormat(options.format), (await connect(options.profile).runs.cancel(uuid(runId))) as Run);
    });
}
