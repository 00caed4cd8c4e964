import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { describeReport } from './client/import-report.ts';
import { UsageError } from './usage-error.ts';
import { UUID_PATTERN } from '../domain/identifiers.ts';
import { AppError, placedFieldMessage, reworded } from '../errors.ts';

/**
 * `ledger-recon import FILE --org ORG --dataset ID`: imports a file on this machine straight
 * into the store, the way the HTTP operation does (same importer, same report, all or nothing).
 * With the embedded store the server must be stopped (the store is locked by the process that
 * opens it); with PostgreSQL it may run beside the server.
 */

/** How often the progress bar is redrawn. */
const PROGRESS_REDRAW_MILLISECONDS = 200;

export async function importCommand(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      org: { type: 'string' },
      dataset: { type: 'string' },
      format: { type: 'string' },
      encoding: { type: 'string' },
      mapping: { type: 'string' },
      'mapping-name': { type: 'string' },
      'allow-other-account': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new UsageError('import takes one FILE: ledger-recon import FILE --org ORG --dataset ID');
  const filePath = positionals[0]!;
  if (!values.org || !UUID_PATTERN.test(values.org)) throw new UsageError('import needs --org ORG, the organization id (a UUID, as printed by init or demo)');
  if (!values.dataset || !UUID_PATTERN.test(values.dataset))
    throw new UsageError('import needs --dataset ID, the id of the dataset that receives the file (a UUID)');
  let stats;
  try {
    stats = statSync(filePath);
  } catch {
    throw new UsageError(`cannot read ${JSON.stringify(filePath)}: no such file`);
  }
  if (!stats.isFile()) throw new UsageError(`${JSON.stringify(filePath)} is not a file`);
  const mapping = values.mapping === undefined ? null : readMapping(values.mapping);

  const { openRuntime } = await import('../runtime.ts');
  const { fileFromPath } = await import('../domain/imports/spooled-file.ts');
  const { checkFileName, checkFormat } = await import('../domain/imports/imports.ts');
  const runtime = await openRuntime(config, { ensureSigningKey: false });
  const progress = new ProgressBar(stats.size, values.json === false && process.stderr.isTTY === true);
  try {
    const file = await fileFromPath(filePath, config.importMaxBytes, (bytesRead) => progress.bytes(bytesRead));
    const importId = randomUUID();
    const organizationId = values.org.toLowerCase();
    const datasetId = values.dataset.toLowerCase();
    if (!values.json) process.stderr.write(`importing ${path.basename(filePath)} (${stats.size} bytes) into dataset ${values.dataset}\n`);
    const timer = setInterval(
      () => progress.rows(runtime.services.imports.progress.find(organizationId, importId)?.rowsRead ?? 0),
      PROGRESS_REDRAW_MILLISECONDS,
    );
    let report;
    try {
      report = await inCommandTerms(() =>
        runtime.services.imports.importNow(
          { organizationId, actor: 'cli:import', requestId: null },
          {
            datasetId,
            format: checkFormat(values.format ?? null),
            encoding: values.encoding ?? null,
            fileName: checkFileName(path.basename(filePath)),
            mapping,
            mappingName: values['mapping-name'] ?? null,
            importId,
            allowOtherAccount: values['allow-other-account'] === true,
          },
          file,
        ),
      );
    } finally {
      clearInterval(timer);
      await progress.stop();
    }
    process.stdout.write(values.json ? JSON.stringify(report) + '\n' : describeReport(report));
  } finally {
    await runtime.close();
  }
}

/** The options of this command that set each field the importer may refuse. */
const OPTION_OF_FIELD: Record<string, string> = {
  format: '--format',
  encoding: '--encoding',
  mapping: '--mapping-name',
  fileName: 'the FILE name',
  allowOtherAccount: '--allow-other-account',
};

/**
 * The importer names the fields it refuses in its own terms ("format: must be one of …"); a
 * person at this command knows them as its options.
 */
async function inCommandTerms<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const message = placedFieldMessage(error, (_place, name) => OPTION_OF_FIELD[name] ?? name);
    throw message === error.message ? error : reworded(error, message);
  }
}

function readMapping(mappingPath: string): unknown {
  let text: string;
  try {
    text = readFileSync(mappingPath, 'utf8');
  } catch {
    throw new UsageError(`cannot read the mapping file ${JSON.stringify(mappingPath)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the mapping file ${JSON.stringify(mappingPath)} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * The progress of an import at a terminal: the bytes of the file read so far (the importer
 * reads a file more than once when it must check its encoding; the bar follows each read) and
 * the entries read. Nothing is drawn when standard error is not a terminal.
 */
class ProgressBar {
  #bar: import('cli-progress').SingleBar | null = null;
  #rows = 0;
  readonly #ready: Promise<void>;

  constructor(
    private readonly totalBytes: number,
    enabled: boolean,
  ) {
    this.#ready = enabled
      ? import('cli-progress').then(({ default: progress }) => {
          this.#bar = new progress.SingleBar(
            { format: '  {bar} {percentage}% | {rows} entries | {duration_formatted}', hideCursor: true, clearOnComplete: false, stream: process.stderr },
            progress.Presets.shades_classic,
          );
          this.#bar.start(Math.max(totalBytes, 1), 0, { rows: 0 });
        })
      : Promise.resolve();
  }

  bytes(bytesRead: number): void {
    this.#bar?.update(Math.min(bytesRead, this.totalBytes), { rows: this.#rows });
  }

  rows(rows: number): void {
    this.#rows = rows;
    this.#bar?.update({ rows });
  }

  async stop(): Promise<void> {
    await this.#ready;
    this.#bar?.stop();
  }
}
