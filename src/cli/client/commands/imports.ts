import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ImportFormat, ImportReport } from '@ledger-recon/sdk';
import { uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { describeReport } from '../import-report.ts';

const FORMATS: ImportFormat[] = ['csv', 'camt.052', 'camt.053', 'camt.054', 'mt940', 'mt942', 'bai2', 'ofx'];
/** How often the import is looked at while the server reads it. */
const POLL_INTERVAL_MILLISECONDS = 300;

/**
 * `import FILE --dataset ID`: uploads the file through the server (the SDK), showing the bytes
 * sent and then the rows read on a terminal, and prints the report. With --org it is the admin
 * import straight into the store instead (src/cli/import-command.ts).
 */
export function registerImportCommand(program: Command): void {
  program
    .command('import <file>')
    .description('import a bank statement (camt.052/053/054, MT940/942, BAI2, OFX) or a CSV file into a dataset, all or nothing, and print the report')
    .requiredOption('--dataset <id>', 'the dataset that receives the file', uuid)
    .option('--format <format>', `one of ${FORMATS.join(', ')} (default: detected)`)
    .option('--encoding <encoding>', "the file's character encoding (default: detected)")
    .option('--mapping <file.json>', 'a CSV mapping to read the file with (docs/IMPORTS.md)')
    .option('--mapping-name <name>', 'a mapping saved on the dataset')
    .option('--allow-other-account', "import statements of an account other than the dataset's (refused otherwise)")
    .option('--profile <name>', 'the profile to use')
    .option('--json', 'print the report as JSON (the default when standard output is not a terminal)')
    .action(
      async (
        file: string,
        options: {
          dataset: string;
          format?: string;
          encoding?: string;
          mapping?: string;
          mappingName?: string;
          allowOtherAccount?: boolean;
          profile?: string;
          json?: boolean;
        },
      ) => {
        if (options.format !== undefined && !FORMATS.includes(options.format as ImportFormat))
          throw new CliError(ExitCode.usage, `--format must be one of ${FORMATS.join(', ')}; got "${options.format}"`);
        if (options.mapping !== undefined && options.mappingName !== undefined)
          throw new CliError(ExitCode.usage, 'give --mapping or --mapping-name, not both');
        let sizeBytes: number;
        try {
          const stats = statSync(file);
          if (!stats.isFile()) throw new Error('not a file');
          sizeBytes = stats.size;
        } catch {
          throw new CliError(ExitCode.usage, `cannot read ${JSON.stringify(file)}: there is no such file`);
        }
        let mapping: Record<string, unknown> | undefined;
        if (options.mapping !== undefined) {
          try {
            mapping = JSON.parse(readFileSync(options.mapping, 'utf8')) as Record<string, unknown>;
          } catch (error) {
            throw new CliError(
              ExitCode.usage,
              `--mapping ${options.mapping}: ${error instanceof SyntaxError ? 'not valid JSON' : 'cannot be read'} (${(error as Error).message})`,
            );
          }
        }
        const json = options.json === true || process.stdout.isTTY !== true;
        const recon = connect(options.profile);
        const showProgress = process.stderr.isTTY === true;
        const bar = new SingleBar({
          format: '{phase} [{bar}] {percentage}% | {detail}',
          hideCursor: true,
          stream: process.stderr,
          clearOnComplete: true,
          barsize: 30,
        });
        if (showProgress) bar.start(sizeBytes, 0, { phase: 'uploading', detail: `0 of ${sizeBytes} bytes` });
        let report: ImportReport;
        try {
          const started = await recon.imports.upload(options.dataset, file, {
            format: options.format as ImportFormat | undefined,
            encoding: options.encoding,
            mapping: mapping ?? options.mappingName,
            fileName: path.basename(file),
            allowOtherAccount: options.allowOtherAccount === true,
            respondAsync: true,
            onUploadProgress: ({ bytesSent }) => {
              if (showProgress) bar.update(bytesSent, { phase: 'uploading', detail: `${bytesSent} of ${sizeBytes} bytes` });
            },
          });
          report = await recon.imports.wait(started.id, {
            intervalMs: POLL_INTERVAL_MILLISECONDS,
            onProgress: (current) => {
              if (showProgress) bar.update(sizeBytes, { phase: 'reading  ', detail: `${current.rowsRead} rows read` });
            },
          });
        } finally {
          if (showProgress) bar.stop();
        }
        process.stdout.write(json ? JSON.stringify(report) + '\n' : describeReport(report));
        if (report.status === 'failed')
          throw new CliError(
            ExitCode.jobFailed,
            `the import failed and nothing of the file was kept${report.error ? `: ${typeof report.error === 'string' ? report.error : JSON.stringify(report.error)}` : ''}`,
          );
      },
    );
}

/**
 * `imports undo ID [--unmatch]`: removes the transactions an import created (DELETE /imports/{id});
 * `--dry-run` only says what would go. JSON when asked or piped; exit 5 when the server refuses
 * (matched transactions without --unmatch, an import running, failed or already undone).
 */
export function registerImportsCommands(program: Command): void {
  const imports = program.command('imports').description('file imports: undo one');
  imports
    .command('undo <importId>')
    .description('remove the transactions an import created, all or nothing; refused while any is matched unless --unmatch')
    .option('--unmatch', 'also dissolve the match groups of its matched transactions')
    .option('--dry-run', 'only show what would be removed')
    .option('--note <text>', 'why; kept in the audit trail')
    .option('--profile <name>', 'the profile to use')
    .option('--json', 'print the answer as JSON (the default when standard output is not a terminal)')
    .action(async (importId: string, options: { unmatch?: boolean; dryRun?: boolean; note?: string; profile?: string; json?: boolean }) => {
      const id = uuid(importId);
      const json = options.json === true || process.stdout.isTTY !== true;
      const recon = connect(options.profile);
      if (options.dryRun) {
        const preview = await recon.imports.undoPreview(id);
        if (json) process.stdout.write(JSON.stringify(preview) + '\n');
        else {
          const lines = [
            preview.refusal ??
              `undoing import ${id} would remove ${plural(preview.transactions, 'transaction')}; ${plural(preview.matched, 'of them is', 'of them are')} matched`,
            ...preview.matchedTransactions.map(
              (entry) =>
                `  ${entry.id}  ${new Date(entry.timestamp).toISOString().slice(0, 10)}  ${entry.amount ?? ''} ${entry.currency ?? ''}  ${entry.description ?? ''}`,
            ),
          ];
          if (preview.refusal === null && preview.matched > 0) lines.push('undo it with --unmatch to dissolve their match groups as well');
          process.stdout.write(lines.join('\n') + '\n');
        }
        return;
      }
      const result = await recon.imports.undo(id, { unmatch: options.unmatch === true, note: options.note });
      if (json) process.stdout.write(JSON.stringify(result) + '\n');
      else {
        const dissolved = result.matchGroupsDissolved > 0 ? `, ${plural(result.matchGroupsDissolved, 'match group')} dissolved` : '';
        process.stdout.write(`import ${id} undone: ${plural(result.removed, 'transaction')} removed${dissolved}\n`);
      }
    });
}

/** "1 transaction", "3 transactions"; with a plural form given, "1 of them is", "2 of them are". */
function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
