import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useSearchParams } from 'react-router';
import { accountForPeople, type Connection, type ImportPreview, type ImportReport } from '@ledger-recon/sdk';
import { DatasetSelect, useDatasets, type NamedDataset } from '../components/DatasetSelect.tsx';
import { CsvMapper, type MapperState } from '../components/CsvMapper.tsx';
import { customColumnsOf } from '../csv-mapping-form.ts';
import { formatAmount, formatCount, formatDateTime } from '../format.ts';
import { CalendarDate, Moment } from '../components/When.tsx';
import { messageOf, useSession } from '../session.tsx';
import { problemInWords } from '../messages.ts';
import { TableHead } from '../components/TableHead.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { UndoImportDialog } from '../components/UndoImportDialog.tsx';
import { useConnections } from '../connections.ts';

/** An import's status in words. */
const STATUS_WORDS: Record<string, string> = { running: 'running', completed: 'imported', failed: 'failed', undone: 'undone' };

/** The first sentence of the refusal of a statement of another account (the rest is for API users). */
function otherAccountProblem(message: string): string | null {
  if (!message.includes('allowOtherAccount')) return null;
  return (
    message
      .split('. Import the file into')[0]!
      .replace(/ \(line \d+\)/, '')
      .replace(/^the file/, 'The file') + '.'
  );
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'previewing' }
  | { kind: 'uploading'; percent: number }
  | { kind: 'reading'; rows: number }
  | { kind: 'done'; report: ImportReport }
  | { kind: 'failed'; message: string };

function isCsv(file: File): boolean {
  return /\.(csv|txt)$/i.test(file.name) || file.type === 'text/csv';
}

/** The dataset, other than the one chosen, that holds the account a refusal names; null when there is none. */
function datasetOfOtherAccount(refusal: string, chosen: string, datasets: readonly NamedDataset[]): NamedDataset | null {
  // The account is followed by its line or by the comma, so that account 123 is not taken for 1234.
  const holds = (dataset: NamedDataset) =>
    dataset.accountId !== null && [' (', ','].some((after) => refusal.includes(`statement of account ${accountForPeople(dataset.accountId!)}${after}`));
  return datasets.find((dataset) => dataset.id !== chosen && holds(dataset)) ?? null;
}

function Report({
  report,
  otherDataset,
  onImportAnyway,
  onImportInto,
}: {
  report: ImportReport;
  otherDataset: NamedDataset | null;
  onImportAnyway: () => void;
  onImportInto: (dataset: NamedDataset) => void;
}) {
  const statements = report.statements as {
    statementId: string | null;
    accountId: string | null;
    currency: string | null;
    entries: number;
    sumOfEntries: string;
    balanced: boolean | null;
    openingBalance: { amount: string; date: string | null } | null;
    closingBalance: { amount: string; date: string | null } | null;
  }[];
  const warnings = report.warnings as { line: number | null; message: string }[];
  const error = report.error as { message: string; line: number | null } | null;
  const otherAccount = error ? otherAccountProblem(error.message) : null;
  return (
    <section className="card" aria-label="Import report">
      <h2>
        {report.fileName ?? 'The file'}: {report.status === 'completed' ? 'imported' : report.status}
      </h2>
      <p>
        {report.format ?? 'format not detected'} ({report.encoding ?? 'encoding not detected'}) · {formatCount(report.rowsRead)} entries read ·{' '}
        <strong>{formatCount(report.inserted)} new</strong> · {formatCount(report.duplicates)} already known (left as they were)
      </p>
      {error && otherAccount === null && (
        <p className="error" role="alert">
          Nothing of the file was kept: {problemInWords(error.message, 'the file does not follow its format')}
          {error.line !== null ? ` (line ${error.line})` : ''}
        </p>
      )}
      {otherAccount !== null && (
        <>
          <p className="error" role="alert">
            Nothing of the file was kept. {otherAccount}{' '}
            {otherDataset
              ? `That account's statements go into ${otherDataset.sourceName} · ${otherDataset.name}; import the file there, or here if it belongs here after all.`
              : 'Choose the dataset of that account, or import the file here if it belongs here after all.'}
          </p>
          <div className="buttons">
            {otherDataset && (
              <button type="button" onClick={() => onImportInto(otherDataset)}>
                Import it into {otherDataset.name} instead
              </button>
            )}
            <button type="button" className="secondary" onClick={onImportAnyway}>
              Import it into this dataset anyway
            </button>
          </div>
          <p className="hint">If you import it anyway, its entries join this dataset, which keeps its own account.</p>
        </>
      )}
      {statements.length > 0 && (
        <table>
          <TableHead columns={['Statement', 'Account', '#Opening', '#Entries', '#Sum of entries', '#Closing', 'Balances']} />
          <tbody>
            {statements.map((statement, index) => (
              <tr key={index}>
                <td>{statement.statementId ?? '—'}</td>
                <td>{statement.accountId ?? '—'}</td>
                <BalanceCell balance={statement.openingBalance} currency={statement.currency} />
                <td className="number">{statement.entries}</td>
                <td className="number">{formatAmount(statement.sumOfEntries, statement.currency)}</td>
                <BalanceCell balance={statement.closingBalance} currency={statement.currency} />
                <td className={statement.balanced === false ? 'error' : undefined}>
                  {statement.balanced === null ? 'not given' : statement.balanced ? 'agree' : 'DO NOT AGREE: opening + entries ≠ closing'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {warnings.length > 0 && (
        <>
          <h3>Warnings</h3>
          <ul>
            {warnings.map((warning, index) => (
              <li key={index}>
                {warning.line !== null ? `Line ${warning.line}: ` : ''}
                {warning.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** A statement's balance: its amount, and under it the day it was struck, as the bank wrote it. */
function BalanceCell({ balance, currency }: { balance: { amount: string; date: string | null } | null; currency: string | null }) {
  return (
    <td className="number">
      {formatAmount(balance?.amount, currency)}
      {balance?.date && (
        <span className="balance-date">
          on <CalendarDate value={balance.date} />
        </span>
      )}
    </td>
  );
}

/** The days of an import's statements (their closing balances' dates, else their opening ones'), as calendar dates. */
function StatementDates({ report }: { report: ImportReport }) {
  const statements = (report.statements ?? []) as { openingBalance?: { date: string | null } | null; closingBalance?: { date: string | null } | null }[];
  const days = [
    ...new Set(statements.map((statement) => statement.closingBalance?.date ?? statement.openingBalance?.date).filter((day): day is string => !!day)),
  ].sort();
  if (days.length === 0) return <>—</>;
  return (
    <>
      {days.map((day, at) => (
        <span key={day}>
          {at > 0 ? ', ' : ''}
          <CalendarDate value={day} />
        </span>
      ))}
    </>
  );
}

export function ImportsPage() {
  const { session, recon } = useSession();
  const client = useQueryClient();
  const datasets = useDatasets();
  // A dataset's "Import a file" (and a new dataset) opens this screen with that dataset chosen.
  const [params] = useSearchParams();
  const [chosen, setChosen] = useState<string>(params.get('dataset') ?? '');
  // A pickup's file links to its import (?import=): the screen opens on that import's dataset, the import marked in the history.
  const linkedImportId = params.get('import');
  const linked = useQuery({
    queryKey: ['import', linkedImportId],
    enabled: linkedImportId !== null,
    queryFn: () => recon.imports.get(linkedImportId!),
  });
  const datasetId = chosen || linked.data?.datasetId || (linkedImportId !== null && linked.isPending ? '' : datasets[0]?.id) || '';
  const selected = datasets.find((dataset) => dataset.id === datasetId);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapper, setMapper] = useState<MapperState | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [dragging, setDragging] = useState(false);
  const [undoing, setUndoing] = useState<ImportReport | null>(null);
  const [undoneMessage, setUndoneMessage] = useState<string | null>(null);
  const history = useQuery({
    queryKey: ['imports', datasetId],
    enabled: datasetId !== '',
    queryFn: async () => {
      const reports: ImportReport[] = [];
      for await (const report of recon.imports.list({ datasetId })) {
        reports.push(report);
        if (reports.length >= 50) break;
      }
      return reports;
    },
  });

  // The linked import is in the history (read with it when it is older than the history's 50): brought into view once.
  const historyRows = history.data
    ? linked.data && linked.data.datasetId === datasetId && !history.data.some((report) => report.id === linked.data.id)
      ? [...history.data, linked.data]
      : history.data
    : undefined;
  // Imports a pickup made name their connection, which only the connections list knows.
  const connections = useConnections({ needed: historyRows?.some((report) => report.createdBy.startsWith('connection:')) ?? false });
  const linkedRow = useRef<HTMLTableRowElement>(null);
  const linkedShown = historyRows?.some((report) => report.id === linkedImportId) ?? false;
  useEffect(() => {
    if (linkedShown) linkedRow.current?.scrollIntoView({ block: 'center' });
  }, [linkedShown]);

  async function choose(next: File, into = datasetId) {
    setFile(next);
    setPreview(null);
    setMapper(null);
    setPhase({ kind: 'idle' });
    if (!isCsv(next)) return;
    setPhase({ kind: 'previewing' });
    try {
      const proposed = await recon.imports.preview(into, next);
      setPreview(proposed);
      setPhase({ kind: 'idle' });
    } catch (error) {
      setPhase({ kind: 'failed', message: messageOf(error) });
    }
  }

  async function start({ allowOtherAccount = false, into = datasetId }: { allowOtherAccount?: boolean; into?: string } = {}) {
    if (!file) return;
    setUndoneMessage(null);
    setPhase({ kind: 'uploading', percent: 0 });
    try {
      // A CSV read with the mapper: its mapping is saved on the dataset under its name, so that the
      // next file of the same header is read with it, and the file is imported with it.
      let mapping: string | undefined;
      if (needsMapping && mapper) {
        await recon.imports.mappings.save(into, mapper.name, mapper.mapping);
        mapping = mapper.name;
      }
      const started = await recon.imports.upload(into, file, {
        mapping,
        allowOtherAccount,
        respondAsync: true,
        onUploadProgress: ({ bytesSent, totalBytes }) => setPhase({ kind: 'uploading', percent: totalBytes ? Math.round((bytesSent / totalBytes) * 100) : 0 }),
      });
      const report = await recon.imports.wait(started.id, { intervalMs: 400, onProgress: (current) => setPhase({ kind: 'reading', rows: current.rowsRead }) });
      setPhase({ kind: 'done', report });
      void client.invalidateQueries({ queryKey: ['imports', into] });
      void client.invalidateQueries({ queryKey: ['sources'] });
    } catch (error) {
      setPhase({ kind: 'failed', message: messageOf(error) });
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) void choose(dropped);
  }

  const busy = phase.kind === 'uploading' || phase.kind === 'reading' || phase.kind === 'previewing';
  const needsMapping = preview !== null && !preview.standardHeader && !preview.preset;
  if (session.user.role === 'View-only')
    return (
      <section className="card">
        <h1>Imports</h1>
        <p>Importing needs the Full member or Administrator role.</p>
      </section>
    );
  return (
    <>
      <section className="card">
        <h1>Import a file</h1>
        <p className="hint">
          Bank statements (camt.052/053/054, MT940/942, BAI2, OFX/QFX) and CSV exports. A file is imported whole or not at all; entries the dataset already
          holds are not doubled.
        </p>
        <DatasetSelect
          label="Into dataset"
          value={datasetId}
          onChange={(next) => {
            setChosen(next);
            // A CSV is read again for the dataset chosen: its saved mappings and its columns.
            if (file && isCsv(file)) void choose(file, next);
          }}
          datasets={datasets}
        />
        {selected?.accountId && (
          <p className="hint">
            This dataset holds the statements of account {accountForPeople(selected.accountId)}
            {selected.currency ? ` (${selected.currency})` : ''}; a statement of another account is not imported without your say.
          </p>
        )}
        <div
          className={`dropzone${dragging ? ' dragging' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <p>Drop a file here, or</p>
          <label className="file-button">
            Choose a file
            <input type="file" className="visually-hidden" onChange={(event) => event.target.files?.[0] && void choose(event.target.files[0])} />
          </label>
          {file && (
            <p>
              <strong>{file.name}</strong> ({formatCount(file.size)} bytes)
            </p>
          )}
        </div>
        {preview && file && (
          <section className="preview" aria-label="How the file will be read">
            <h2>How the file will be read</h2>
            {preview.preset ? (
              <p className="success">This is the {preview.preset.title}: it is read as the provider writes it, no mapping is needed.</p>
            ) : preview.standardHeader ? (
              <p className="success">The header names the dataset's columns: the file is read as it is.</p>
            ) : (
              <CsvMapper
                key={`${file.name}-${file.size}-${file.lastModified}-${datasetId}`}
                datasetId={datasetId}
                file={file}
                preview={preview}
                customColumns={customColumnsOf(selected?.columns ?? [])}
                onChange={setMapper}
              />
            )}
          </section>
        )}
        <div className="buttons">
          <button
            type="button"
            disabled={!file || busy || datasetId === '' || (needsMapping && (mapper === null || mapper.blocked))}
            onClick={() => void start()}
          >
            Import
          </button>
          {needsMapping && mapper?.blocked && <span className="hint">Settle the points above the table to import.</span>}
          {phase.kind === 'previewing' && <span role="status">Reading the head of the file…</span>}
          {phase.kind === 'uploading' && (
            <span role="status">
              Uploading <progress max={100} value={phase.percent} aria-label="Upload" /> {phase.percent}%
            </span>
          )}
          {phase.kind === 'reading' && <span role="status">{formatCount(phase.rows)} rows read…</span>}
        </div>
        {phase.kind === 'failed' && (
          <p className="error" role="alert">
            {phase.message}
          </p>
        )}
      </section>
      {phase.kind === 'done' && (
        <Report
          report={phase.report}
          otherDataset={phase.report.error ? datasetOfOtherAccount(phase.report.error.message, phase.report.datasetId, datasets) : null}
          onImportAnyway={() => void start({ allowOtherAccount: true, into: phase.report.datasetId })}
          onImportInto={(other) => {
            // The screen follows the file to the dataset it goes into, so its history shows the import.
            setChosen(other.id);
            void start({ into: other.id });
          }}
        />
      )}
      <section className="card">
        <h2>History</h2>
        {undoneMessage && (
          <p className="success" role="status">
            {undoneMessage}
          </p>
        )}
        <ErrorMessage error={linked.error} />
        {historyRows?.length === 0 && <p className="hint">No file imported into this dataset yet.</p>}
        {historyRows && historyRows.length > 0 && (
          <table>
            <TableHead columns={['When', 'File', 'Format', 'Statement date', 'Status', '#New', '#Known', 'By', 'Actions']} />
            <tbody>
              {historyRows.map((report) => (
                <tr
                  key={report.id}
                  ref={report.id === linkedImportId ? linkedRow : undefined}
                  className={report.id === linkedImportId ? 'linked-import' : undefined}
                  aria-current={report.id === linkedImportId ? 'true' : undefined}
                >
                  <td>
                    <Moment value={report.createdAt} />
                  </td>
                  <td>{report.fileName ?? '—'}</td>
                  <td>{report.format ?? '—'}</td>
                  <td>
                    <StatementDates report={report} />
                  </td>
                  <td className={report.status === 'failed' ? 'error' : undefined}>
                    {STATUS_WORDS[report.status] ?? report.status}
                    {report.status === 'undone' && report.undoneAt ? (
                      <>
                        {' '}
                        <Moment value={report.undoneAt} />
                      </>
                    ) : (
                      ''
                    )}
                  </td>
                  <td className="number">{formatCount(report.inserted)}</td>
                  <td className="number">{formatCount(report.duplicates)}</td>
                  <td>{importedBy(report.createdBy, connections.data)}</td>
                  <td>
                    {report.status === 'completed' && (
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Undo import of ${report.fileName ?? 'the file'} from ${formatDateTime(report.createdAt)}`}
                        onClick={() => setUndoing(report)}
                      >
                        Undo import
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {undoing && (
        <UndoImportDialog
          report={undoing}
          onClose={() => setUndoing(null)}
          onUndone={(message) => {
            setUndoing(null);
            setUndoneMessage(message);
            void client.invalidateQueries({ queryKey: ['imports', datasetId] });
            void client.invalidateQueries({ queryKey: ['sources'] });
          }}
        />
      )}
    </>
  );
}

/**
 * Who imported a file, as a person reads it: a user by their email; a program by what it is, since
 * an API client's id means nothing on this screen.
 */
function importedBy(actor: string, connections: readonly Connection[] | undefined): string {
  if (actor.startsWith('user:')) return actor.slice('user:'.length);
  if (actor.startsWith('client:')) return 'a program (API client)';
  if (actor.startsWith('connection:')) {
    const connection = connections?.find((candidate) => candidate.id === actor.slice('connection:'.length));
    return connection ? `picked up from ${connection.name}` : 'picked up from a connection';
  }
  return actor;
}
