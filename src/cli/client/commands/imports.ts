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
    .option('--encoding <encoding>', 'the file\'s character encoding (default: detected)')
    .option('--mapping <file.json>', 'a CSV mapping to read the file with (docs/IMPORTS.md)')
    .option('--mapping-name <name>', 'a mapping saved on the dataset')
    .option('--profile <name>', 'the profile to use')
    .option('--json', 'print the report as JSON (the default when standard output is not a terminal)')
    .action(async (file: string, options: { dataset: string; format?: string; encoding?: string; mapping?: string; mappingName?: string; profile?: string; json?: boolean }) => {
      if (options.format !== undefined && !FORMATS.includes(options.format as ImportFormat)) throw new CliError(ExitCode.usage, `--format must be one of ${FORMATS.join(', ')}; got "${options.format}"`);
      if (options.mapping !== undefined && options.mappingName !== undefined) throw new CliError(ExitCode.usage, 'give --mapping or --mapping-name, not both');
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
          throw new CliError(ExitCode.usage, `--mapping ${options.mapping}: ${error instanceof SyntaxError ? 'not valid JSON' : 'cannot be read'} (${(error as Error).message})`);
        }
      }
      const json = options.json === true || process.stdout.isTTY !== true;
      const recon = connect(options.profile);
      const showProgress = process.stderr.isTTY === true;
      const bar = new SingleBar(
        { format: '{phase} [{bar}] {percentage}% | {detail}', hideCursor: true, stream: process.stderr, clearOnComplete: true, barsize: 30 },
      );
      if (showProgress) bar.start(sizeBytes, 0, { phase: 'uploading', detail: `0 of ${sizeBytes} bytes` });
      let report: ImportReport;
      try {
        const started = await recon.imports.upload(options.dataset, file, {
          format: options.format as ImportFormat | undefined,
          encoding: options.encoding,
          mapping: mapping ?? options.mappingName,
          fileName: path.basename(file),
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
      if (report.status === 'failed') throw new CliError(ExitCode.jobFailed, `the import failed and nothing of the file was kept${report.error ? `: ${typeof report.error === 'string' ? report.error : JSON.stringify(report.error)}` : ''}`);
    });
}
