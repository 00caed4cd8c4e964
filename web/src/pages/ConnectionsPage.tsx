import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import { LedgerReconError, type Connection, type ConnectionTest, type NewPickup, type Pickup, type PickupFile, type PickupRun } from '@ledger-recon/sdk';
import { ConfirmSubform } from '../components/ConfirmSubform.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import { useDatasets, type NamedDataset } from '../components/DatasetSelect.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Field, FormError } from '../components/FormField.tsx';
import { Moment } from '../components/When.tsx';
import {
  afterImportInWords,
  browserTimeZone,
  CONNECTIONS_KEY,
  connectionAnchor,
  connectionProblemInWords,
  fileProblemInWords,
  fileTooLarge,
  readyMarkerInWords,
  nextLookInItsZone,
  scheduleInWords,
  timeZones,
  OUTCOME_WORDS,
  runCounts,
  runStatusInWords,
  serverWords,
  sizeInWords,
  testInWords,
  useConnections,
} from '../connections.ts';
import { showServerErrors } from '../forms.ts';
import { formatCount, formatDateTimeSeconds } from '../format.ts';
import { describeProblem, TRANSLATIONS } from '../messages.ts';
import { useSession } from '../session.tsx';
import { parseTimesOfDay } from '../times-of-day.ts';

/**
 * Connections (docs/CONNECTIONS.md): the SFTP servers and folders whose statement files are picked
 * up on a schedule, with how their runs go; adding one (a key the service generates, whose public
 * half goes to the bank; a pasted key; a password; or a folder); testing it and confirming the
 * server's host key; and per connection its pickups, "run now" and each run's files with what
 * became of them. Administrators only: a connection holds credentials.
 */

/** The formats a pickup can be told its files are in (the rest: detected). */
const FORMATS: { value: string; label: string }[] = [
  { value: 'camt.053', label: 'camt.053 (end-of-day statement)' },
  { value: 'camt.052', label: 'camt.052 (intraday report)' },
  { value: 'camt.054', label: 'camt.054 (debit and credit notices)' },
  { value: 'mt940', label: 'MT940' },
  { value: 'mt942', label: 'MT942' },
  { value: 'bai2', label: 'BAI2' },
  { value: 'ofx', label: 'OFX / QFX' },
  { value: 'csv', label: 'CSV' },
];

/** How many runs of a pickup are shown before "Show older runs". */
const RUNS_SHOWN = 5;
/** How often a pickup's runs are read again while one is waiting or running. */
const RUN_POLL_MILLISECONDS = 1_000;
/** The server's bounds of a pickup's interval. */
const INTERVAL_MIN = 1;
const INTERVAL_MAX = 10_080;
/** The server's bounds of a pickup's times of day and ready marker. */
const TIMES_OF_DAY_LIMIT = 24;
const READY_MARKER_PATTERN = /^[A-Za-z0-9._-]{1,50}$/;

/** How the service signs in to an SFTP server, in words. */
const AUTH_WORDS: Record<NonNullable<Connection['authMethod']>, string> = {
  generated_key: 'a key the service generated',
  uploaded_key: 'a private key you gave',
  password: 'a password',
};

/**
 * A failed request on a connection form: a catalogue message of the connections' by the app's
 * words, under the field it names (or above the buttons); anything else as the forms do.
 */
function showConnectionErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  labels: Partial<Record<Path<Values>, string>>,
  fieldOfPointer: Record<string, Path<Values>> = {},
): void {
  if (error instanceof LedgerReconError && error.messageId?.startsWith('connections.') && error.messageId in TRANSLATIONS) {
    const field = fieldOfPointer[error.details[0]?.path ?? ''];
    if (field !== undefined) setError(field, { type: 'server', message: describeProblem(error) }, { shouldFocus: true });
    else setError('root.server' as Path<Values>, { type: 'server', message: describeProblem(error) });
    return;
  }
  showServerErrors(error, setError, labels);
}

export function ConnectionsPage() {
  const { session } = useSession();
  if (session.user.role !== 'Administrator') {
    return (
      <section className="card">
        <h1>Connections</h1>
        <p>Only Administrators manage connections, as a connection holds the password or key the service signs in to the bank's server with.</p>
      </section>
    );
  }
  return <AdministratorConnections />;
}

function AdministratorConnections() {
  const connections = useConnections();
  const [created, setCreated] = useState<Connection | null>(null);
  const location = useLocation();
  // A link from the dashboard names a connection: bring it into view (and the focus) once drawn, once per visit.
  const broughtIntoView = useRef<string | null>(null);
  useEffect(() => {
    if (!location.hash.startsWith('#connection-') || !connections.data || broughtIntoView.current === location.key) return;
    broughtIntoView.current = location.key;
    const heading = document.getElementById(`${location.hash.slice(1)}-name`);
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [location.hash, location.key, connections.data]);

  const list = connections.data ?? [];
  return (
    <>
      <section className="card">
        <h1>Connections</h1>
        <p className="hint">
          Bank statement files that arrive on their own: from the bank's SFTP server, or from a folder of this server. Each pickup of a connection looks at a
          folder on a schedule and imports every new file once, as an upload would: all of it or nothing, and never twice, whatever its name.
        </p>
        {connections.isPending && (
          <p role="status" className="placeholder">
            Loading the connections…
          </p>
        )}
        <ErrorMessage error={connections.error} />
        {connections.data && list.length === 0 && (
          <p className="empty">No connections yet. Add the bank's SFTP server or a folder below; then add a pickup saying which files go where.</p>
        )}
      </section>
      {created?.publicKey && <PublicKeyCard connection={created} onDismiss={() => setCreated(null)} />}
      {list.map((connection) => (
        <ConnectionCard key={connection.id} connection={connection} />
      ))}
      <NewConnectionForm onCreated={setCreated} />
    </>
  );
}

/** The public half of a key the service generated, to hand to the bank, with what to do next. */
function PublicKeyCard({ connection, onDismiss }: { connection: Connection; onDismiss: () => void }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [connection.publicKey]);
  return (
    <section className="card reveal" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {connection.name}: the public key to hand to the bank
      </h2>
      <PublicKeyText connection={connection} />
      <p>
        Next: once the bank says the key is installed, test the connection below, and compare the server's host key fingerprint it shows with the one the bank
        gave you.
      </p>
      <div className="buttons">
        <button type="button" className="secondary" onClick={onDismiss}>
          Done
        </button>
      </div>
    </section>
  );
}

function PublicKeyText({ connection }: { connection: Connection }) {
  if (!connection.publicKey) return null;
  return (
    <div className="public-key">
      <p>
        Send this public key to the bank and ask them to allow it for the user <strong>{connection.username}</strong>. It is safe to send by email: only the
        private half, which the service keeps sealed and never shows, can sign in with it.
      </p>
      <pre>{connection.publicKey}</pre>
      <CopyButton value={connection.publicKey} label={`the public key of ${connection.name}`} />
    </div>
  );
}

function ConnectionStatus({ connection }: { connection: Connection }) {
  if (connection.consecutiveFailures > 0) return <span className="status status-failing">Failing</span>;
  if (connection.kind === 'sftp' && connection.hostKeyFingerprint === null) return <span className="status status-pending">Host key to confirm</span>;
  if (connection.lastSuccessAt !== null) return <span className="status status-enabled">Working</span>;
  return <span className="status status-disabled">Not run yet</span>;
}

type CardMode = 'view' | 'edit' | 'delete';

function ConnectionCard({ connection }: { connection: Connection }) {
  const { recon } = useSession();
  const client = useQueryClient();
  const [mode, setMode] = useState<CardMode>('view');
  const [saved, setSaved] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const anchor = connectionAnchor(connection.id);
  const refresh = () => client.invalidateQueries({ queryKey: CONNECTIONS_KEY });
  const pickups = useQuery({ queryKey: ['pickups', connection.id], queryFn: () => recon.connections.pickups(connection.id) });
  const test = useMutation({ mutationFn: () => recon.connections.test(connection.id) });
  const trust = useMutation({
    mutationFn: (fingerprint: string) => recon.connections.update(connection.id, { hostKeyFingerprint: fingerprint }),
    onSuccess: () => {
      test.reset();
      setSaved("The server's host key is confirmed. From now on, a server showing another key is refused before anything is sent to it.");
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => recon.connections.delete(connection.id),
    onSuccess: () => {
      client.removeQueries({ queryKey: ['pickups', connection.id] });
      void refresh();
    },
  });
  const pickupCount = pickups.data?.length ?? 0;

  return (
    <section
      className={connection.consecutiveFailures > 0 ? 'card connection connection-failing' : 'card connection'}
      id={anchor}
      aria-labelledby={`${anchor}-name`}
    >
      <div className="endpoint-head">
        <h2 id={`${anchor}-name`} tabIndex={-1}>
          {connection.name}
        </h2>
        <ConnectionStatus connection={connection} />
      </div>
      <dl className="endpoint-facts">
        {connection.kind === 'sftp' ? (
          <>
            <div>
              <dt>SFTP server</dt>
              <dd>
                {connection.host}
                {connection.port !== 22 ? `, port ${connection.port}` : ''}
              </dd>
            </div>
            <div>
              <dt>User</dt>
              <dd>{connection.username}</dd>
            </div>
            <div>
              <dt>Signs in with</dt>
              <dd>{connection.authMethod ? AUTH_WORDS[connection.authMethod] : '—'}</dd>
            </div>
            <div>
              <dt>Host key</dt>
              <dd>{connection.hostKeyFingerprint ? <code>{connection.hostKeyFingerprint}</code> : 'not confirmed yet: test the connection'}</dd>
            </div>
          </>
        ) : (
          <div>
            <dt>Folder</dt>
            <dd>{connection.folderPath}</dd>
          </div>
        )}
        <div>
          <dt>Last success</dt>
          <dd>{connection.lastSuccessAt ? <Moment value={connection.lastSuccessAt} /> : 'none yet'}</dd>
        </div>
      </dl>
      {connection.consecutiveFailures > 0 && connection.lastError !== null && (
        <div className="notice-danger" role="status">
          <p>
            <strong>
              Failing since <Moment value={connection.failingSince} />
            </strong>
            : {formatCount(connection.consecutiveFailures)} {connection.consecutiveFailures === 1 ? 'run' : 'runs'} in a row failed, the last on{' '}
            <Moment value={connection.lastErrorAt} />. While it fails, its pickups look less often (up to every six hours), and return to their schedule after a
            success.
          </p>
          <p>{connectionProblemInWords(connection.lastError)}</p>
        </div>
      )}
      {connection.consecutiveFailures === 0 && connection.lastError !== null && (
        <p className="hint">
          The last failure, on <Moment value={connection.lastErrorAt} />, was followed by a success: {connectionProblemInWords(connection.lastError)}
        </p>
      )}
      {connection.publicKey && connection.authMethod === 'generated_key' && (
        <details className="public-key-details" open={revealed} onToggle={(event) => setRevealed(event.currentTarget.open)}>
          <summary>Public key to hand to the bank</summary>
          <PublicKeyText connection={connection} />
        </details>
      )}
      {saved && (
        <p className="success" role="status">
          {saved}
        </p>
      )}
      {mode === 'view' && (
        <div className="buttons">
          <button
            type="button"
            onClick={() => {
              setSaved(null);
              test.mutate();
            }}
            disabled={test.isPending}
          >
            {test.isPending ? 'Testing…' : 'Test connection'}
          </button>
          <button type="button" className="secondary" onClick={() => setMode('edit')} aria-label={`Edit the connection ${connection.name}`}>
            Edit
          </button>
          <button type="button" className="danger" onClick={() => setMode('delete')} aria-label={`Delete the connection ${connection.name}`}>
            Delete
          </button>
        </div>
      )}
      <ErrorMessage error={test.error ?? trust.error} />
      {test.data && <TestResult test={test.data} connection={connection} trusting={trust.isPending} onTrust={(fingerprint) => trust.mutate(fingerprint)} />}
      {mode === 'edit' && (
        <EditConnectionForm
          connection={connection}
          onDone={(message, changed) => {
            setMode('view');
            if (message) setSaved(message);
            if (changed?.authMethod === 'generated_key' && changed.publicKey !== connection.publicKey) setRevealed(true);
            void refresh();
          }}
        />
      )}
      {mode === 'delete' && (
        <ConfirmSubform
          label={`Delete the connection ${connection.name}`}
          error={remove.error}
          pending={remove.isPending}
          confirmLabel="Delete the connection"
          pendingLabel="Deleting…"
          danger
          onConfirm={() => remove.mutate()}
          onCancel={() => setMode('view')}
        >
          Delete the connection {connection.name}?{' '}
          {pickupCount === 0
            ? 'It has no pickups; no more files can be picked up from it'
            : `Its ${pickupCount === 1 ? 'pickup' : `${formatCount(pickupCount)} pickups`} and the history of their runs are deleted with it, and no more files are picked up from it`}
          {connection.kind === 'sftp' ? ', and the key or password it signs in with is lost' : ''}. The files already imported stay imported.{' '}
          <strong>This cannot be undone.</strong>
        </ConfirmSubform>
      )}
      <Pickups connection={connection} pickups={pickups.data} error={pickups.error} />
    </section>
  );
}

/** What a test found: it works; a host key to check and trust; a changed host key (a stop); or what failed. */
function TestResult({
  test,
  connection,
  trusting,
  onTrust,
}: {
  test: ConnectionTest;
  connection: Connection;
  trusting: boolean;
  onTrust: (fingerprint: string) => void;
}) {
  const [bankChangedIt, setBankChangedIt] = useState(false);
  if (test.ok) {
    return (
      <p className="success" role="status">
        {testInWords(test, connection.kind)}
      </p>
    );
  }
  if (test.hostKeyStatus === 'unconfirmed' && test.hostKeyFingerprint !== null && connection.hostKeyFingerprint === null) {
    return (
      <div className="notice-check" role="status">
        <p>{testInWords(test)}</p>
        <p>The server shows this host key fingerprint:</p>
        <p className="fingerprint">
          <code>{test.hostKeyFingerprint}</code>
        </p>
        <p>
          Compare it, character by character, with the fingerprint the bank gave you in their onboarding letter or on the phone, not through this connection. If
          they differ, do not trust it: ask the bank, as someone may be standing between the service and their server.
        </p>
        <div className="buttons">
          <button type="button" disabled={trusting} onClick={() => onTrust(test.hostKeyFingerprint!)}>
            {trusting ? 'Confirming…' : 'I checked this with the bank — trust it'}
          </button>
        </div>
      </div>
    );
  }
  if (test.hostKeyStatus === 'changed' && test.hostKeyFingerprint !== null) {
    return (
      <div className="notice-danger" role="alert">
        <p>
          <strong>Stop: the server's host key has changed, so the service sent it nothing.</strong> This is what a server pretending to be the bank's would look
          like. Ask the bank, not through this connection, whether they changed their key, and trust the new one only if they did.
        </p>
        <p>
          Confirmed before: <code>{connection.hostKeyFingerprint}</code>
          <br />
          Shown now: <code>{test.hostKeyFingerprint}</code>
        </p>
        <label className="chip">
          <input type="checkbox" checked={bankChangedIt} onChange={(event) => setBankChangedIt(event.target.checked)} />
          <span>The bank told me, not through this connection, that they changed their key to the one shown now.</span>
        </label>
        <div className="buttons">
          <button type="button" className="danger" disabled={!bankChangedIt || trusting} onClick={() => onTrust(test.hostKeyFingerprint!)}>
            Trust the new key
          </button>
        </div>
      </div>
    );
  }
  return (
    <p className="error" role="alert">
      {testInWords(test)}
    </p>
  );
}

// Adding and changing a connection.

type Kind = 'sftp' | 'folder';
type SignIn = 'generated_key' | 'uploaded_key' | 'password';

interface ConnectionDraft {
  name: string;
  kind: Kind;
  host: string;
  port: string;
  username: string;
  signIn: SignIn | 'keep';
  privateKey: string;
  password: string;
  folderPath: string;
}

const CONNECTION_LABELS = {
  name: 'Name',
  host: 'Server',
  port: 'Port',
  username: 'User',
  privateKey: 'Private key',
  password: 'Password',
  folderPath: 'Folder',
} as const;
const CONNECTION_POINTERS: Record<string, keyof ConnectionDraft> = {
  '/name': 'name',
  '/host': 'host',
  '/port': 'port',
  '/username': 'username',
  '/privateKey': 'privateKey',
  '/password': 'password',
  '/folderPath': 'folderPath',
};

const required = (message: string) => ({ validate: (value: string) => value.trim() !== '' || message });

/** The fields of the server, the user and how the service signs in, shared by the new and the edit form. */
function SftpFields({ form, editing }: { form: ReturnType<typeof useForm<ConnectionDraft>>; editing: boolean }) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const signIn = watch('signIn');
  return (
    <>
      <div className="row connection-server">
        <Field label="Server" error={errors.host} className="grow">
          {(aria) => (
            <input placeholder="e.g. sftp.bank.example" {...aria} {...register('host', required("Enter the server's host name, as the bank gave it."))} />
          )}
        </Field>
        <Field label="Port" error={errors.port}>
          {(aria) => (
            <input
              inputMode="numeric"
              className="port-input"
              {...aria}
              {...register('port', {
                validate: (value) =>
                  (/^\d+$/.test(value.trim()) && Number(value) >= 1 && Number(value) <= 65535) || 'The port is a number from 1 to 65535; 22 mostly.',
              })}
            />
          )}
        </Field>
        <Field label="User" error={errors.username} className="grow">
          {(aria) => (
            <input
              placeholder="as the bank gave it"
              autoComplete="off"
              {...aria}
              {...register('username', {
                validate: (value) => (value.trim() !== '' && !/\s/.test(value.trim())) || 'Enter the user name the bank gave, without spaces.',
              })}
            />
          )}
        </Field>
      </div>
      {editing && <p className="hint">A new server or port forgets the confirmed host key: test the connection again and confirm the new one.</p>}
      <fieldset>
        <legend>How the service signs in</legend>
        {editing && (
          <label className="chip">
            <input type="radio" value="keep" {...register('signIn')} />
            <span>As it does now</span>
          </label>
        )}
        <label className="chip">
          <input type="radio" value="generated_key" {...register('signIn')} />
          <span>
            {editing ? 'Generate a new key' : 'Generate a key'} <span className="hint">(recommended: you then hand its public half to the bank)</span>
          </span>
        </label>
        <label className="chip">
          <input type="radio" value="uploaded_key" {...register('signIn')} />
          <span>Paste a private key</span>
        </label>
        <label className="chip">
          <input type="radio" value="password" {...register('signIn')} />
          <span>A password</span>
        </label>
      </fieldset>
      {signIn === 'uploaded_key' && (
        <Field label="Private key" error={errors.privateKey}>
          {(aria) => (
            <textarea
              rows={6}
              className="wide key-input"
              spellCheck={false}
              placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
              {...aria}
              {...register('privateKey', required('Paste the private key, OpenSSH or PEM, without a passphrase.'))}
            />
          )}
        </Field>
      )}
      {signIn === 'uploaded_key' && <p className="hint">OpenSSH or PEM, Ed25519 or RSA, without a passphrase. It is sealed at rest and never shown again.</p>}
      {signIn === 'password' && (
        <Field label="Password" error={errors.password}>
          {(aria) => <input type="password" autoComplete="new-password" {...aria} {...register('password', required('Enter the password the bank gave.'))} />}
        </Field>
      )}
      {signIn === 'password' && <p className="hint">It is sealed at rest and never shown again.</p>}
      {signIn === 'generated_key' && editing && (
        <p className="warning">A new key replaces the one the bank has: the connection fails until they install the new public key.</p>
      )}
    </>
  );
}

function NewConnectionForm({ onCreated }: { onCreated: (connection: Connection) => void }) {
  const { recon } = useSession();
  const client = useQueryClient();
  const headingId = useId();
  const form = useForm<ConnectionDraft>({
    defaultValues: { name: '', kind: 'sftp', host: '', port: '22', username: '', signIn: 'generated_key', privateKey: '', password: '', folderPath: '' },
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  const kind = watch('kind');

  async function submit(draft: ConnectionDraft) {
    try {
      const created = await recon.connections.create(
        draft.kind === 'folder'
          ? { name: draft.name.trim(), kind: 'folder', folderPath: draft.folderPath.trim() }
          : {
              name: draft.name.trim(),
              kind: 'sftp',
              host: draft.host.trim(),
              port: Number(draft.port),
              username: draft.username.trim(),
              authMethod: draft.signIn as SignIn,
              ...(draft.signIn === 'uploaded_key' ? { privateKey: draft.privateKey.trim() + '\n' } : {}),
              ...(draft.signIn === 'password' ? { password: draft.password } : {}),
            },
      );
      reset();
      onCreated(created);
      void client.invalidateQueries({ queryKey: CONNECTIONS_KEY });
    } catch (caught) {
      showConnectionErrors(caught, setError, CONNECTION_LABELS, CONNECTION_POINTERS);
    }
  }

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Add a connection</h2>
      <form className="connection-form" onSubmit={handleSubmit(submit)} noValidate aria-labelledby={headingId}>
        <Field label="Name" error={errors.name}>
          {(aria) => (
            <input
              className="wide"
              placeholder="e.g. Northwind Bank SFTP"
              {...aria}
              {...register('name', {
                ...required('Give the connection a name, e.g. Northwind Bank SFTP.'),
                maxLength: { value: 200, message: 'The name must have at most 200 characters.' },
              })}
            />
          )}
        </Field>
        <fieldset>
          <legend>Where the files are</legend>
          <label className="chip">
            <input type="radio" value="sftp" {...register('kind')} />
            <span>On an SFTP server (the bank's, or your own)</span>
          </label>
          <label className="chip">
            <input type="radio" value="folder" {...register('kind')} />
            <span>In a folder of this server</span>
          </label>
        </fieldset>
        {kind === 'sftp' ? (
          <SftpFields form={form} editing={false} />
        ) : (
          <>
            <Field label="Folder" error={errors.folderPath}>
              {(aria) => (
                <input
                  className="wide"
                  placeholder="e.g. northwind"
                  {...aria}
                  {...register('folderPath', required('Enter the folder the files are put in.'))}
                />
              )}
            </Field>
            <p className="hint">Inside the directory the operator of this installation allows connections to read; name it from there.</p>
          </>
        )}
        <FormError error={errors.root?.server} />
        <div className="buttons">
          <button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Adding the connection…' : 'Add the connection'}
          </button>
        </div>
      </form>
    </section>
  );
}

function EditConnectionForm({ connection, onDone }: { connection: Connection; onDone: (message: string | null, changed?: Connection) => void }) {
  const { recon } = useSession();
  const form = useForm<ConnectionDraft>({
    defaultValues: {
      name: connection.name,
      kind: connection.kind,
      host: connection.host ?? '',
      port: String(connection.port ?? 22),
      username: connection.username ?? '',
      signIn: 'keep',
      privateKey: '',
      password: '',
      folderPath: connection.folderPath ?? '',
    },
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  async function submit(draft: ConnectionDraft) {
    const change: Parameters<typeof recon.connections.update>[1] = {};
    if (draft.name.trim() !== connection.name) change.name = draft.name.trim();
    if (connection.kind === 'folder') {
      if (draft.folderPath.trim() !== connection.folderPath) change.folderPath = draft.folderPath.trim();
    } else {
      if (draft.host.trim() !== connection.host) change.host = draft.host.trim();
      if (Number(draft.port) !== connection.port) change.port = Number(draft.port);
      if (draft.username.trim() !== connection.username) change.username = draft.username.trim();
      if (draft.signIn !== 'keep') {
        change.authMethod = draft.signIn;
        if (draft.signIn === 'uploaded_key') change.privateKey = draft.privateKey.trim() + '\n';
        if (draft.signIn === 'password') change.password = draft.password;
      }
    }
    if (Object.keys(change).length === 0) {
      onDone(null);
      return;
    }
    try {
      const changed = await recon.connections.update(connection.id, change);
      onDone(
        change.authMethod === 'generated_key'
          ? `${changed.name} is saved with a new key: hand its public half, below, to the bank.`
          : change.host !== undefined || change.port !== undefined
            ? `${changed.name} is saved. Test it and confirm the host key of the new server.`
            : `${changed.name} is saved.`,
        changed,
      );
    } catch (caught) {
      showConnectionErrors(caught, setError, CONNECTION_LABELS, CONNECTION_POINTERS);
    }
  }

  return (
    <form className="subform connection-form" onSubmit={handleSubmit(submit)} noValidate aria-label={`Edit the connection ${connection.name}`}>
      <Field label="Name" error={errors.name}>
        {(aria) => <input className="wide" {...aria} {...register('name', required('Give the connection a name.'))} />}
      </Field>
      {connection.kind === 'sftp' ? (
        <SftpFields form={form} editing />
      ) : (
        <Field label="Folder" error={errors.folderPath}>
          {(aria) => <input className="wide" {...aria} {...register('folderPath', required('Enter the folder the files are put in.'))} />}
        </Field>
      )}
      <FormError error={errors.root?.server} />
      <div className="buttons">
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save the connection'}
        </button>
        <button type="button" className="secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

// Pickups.

function Pickups({ connection, pickups, error }: { connection: Connection; pickups: Pickup[] | undefined; error: unknown }) {
  const [adding, setAdding] = useState(false);
  const headingId = useId();
  return (
    <div className="pickups" aria-labelledby={headingId} role="region">
      <h3 id={headingId}>Pickups of {connection.name}</h3>
      <ErrorMessage error={error} />
      {pickups?.length === 0 && !adding && (
        <p className="empty">No pickups yet: nothing is picked up from this connection. Add one to say which files to take and where they go.</p>
      )}
      {pickups && pickups.length > 0 && (
        <ul className="pickup-list">
          {pickups.map((pickup) => (
            <PickupItem key={pickup.id} connection={connection} pickup={pickup} />
          ))}
        </ul>
      )}
      {adding ? (
        <PickupForm connection={connection} onDone={() => setAdding(false)} />
      ) : (
        <button type="button" className="secondary" onClick={() => setAdding(true)}>
          Add a pickup to {connection.name}
        </button>
      )}
    </div>
  );
}

/** What a pickup takes, as its heading says it: "Files *.xml in folder out/camt053". */
function pickupTitle(connection: Connection, pickup: Pickup): string {
  const own = ['', '.', './'].includes(pickup.path.trim());
  return `Files ${pickup.pattern} in ${own ? (connection.kind === 'folder' ? "the connection's folder" : 'the home folder') : `folder ${pickup.path}`}`;
}

/** Where a pickup's files go, in words. */
function targetInWords(pickup: Pickup, datasets: NamedDataset[]): string {
  if (pickup.routeByAccount) return 'each statement into the dataset of its account; a file of an account no dataset names is held until one does';
  const dataset = datasets.find((candidate) => candidate.id === pickup.datasetId);
  return dataset ? `${dataset.sourceName} · ${dataset.name}` : 'a dataset that is no longer listed';
}

function PickupItem({ connection, pickup }: { connection: Connection; pickup: Pickup }) {
  const { recon } = useSession();
  const client = useQueryClient();
  const datasets = useDatasets();
  const [mode, setMode] = useState<CardMode>('view');
  const titleId = useId();
  const nextLook = nextLookInItsZone(pickup);
  const refreshPickups = () => client.invalidateQueries({ queryKey: ['pickups', connection.id] });
  const { runs, going } = usePickupRuns(connection, pickup);
  const runNow = useMutation({
    mutationFn: () => recon.connections.runNow(connection.id, pickup.id),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['pickup-runs', pickup.id] }),
  });
  const setEnabled = useMutation({
    mutationFn: (enabled: boolean) => recon.connections.updatePickup(connection.id, pickup.id, { enabled }),
    onSuccess: () => void refreshPickups(),
  });
  const remove = useMutation({ mutationFn: () => recon.connections.deletePickup(connection.id, pickup.id), onSuccess: () => void refreshPickups() });
  const title = pickupTitle(connection, pickup);
  const format = FORMATS.find((candidate) => candidate.value === pickup.format);

  return (
    <li>
      <article className={pickup.enabled ? 'pickup' : 'pickup pickup-paused'} aria-labelledby={titleId}>
        <div className="endpoint-head">
          <h4 id={titleId}>{title}</h4>
          {pickup.enabled ? <span className="status status-enabled">On schedule</span> : <span className="status status-disabled">Paused</span>}
        </div>
        <dl className="endpoint-facts pickup-facts">
          <div>
            <dt>Looks</dt>
            <dd>
              {scheduleInWords(pickup)}
              {pickup.enabled ? (
                Date.parse(pickup.nextRunAt) <= Date.now() ? (
                  ', the next look is due now'
                ) : (
                  <>, next at {nextLook !== null ? <time dateTime={pickup.nextRunAt}>{nextLook}</time> : <Moment value={pickup.nextRunAt} />}</>
                )
              ) : (
                ' when on schedule; paused now'
              )}
            </dd>
          </div>
          <div>
            <dt>Format</dt>
            <dd>{format ? format.label : 'detected from each file'}</dd>
          </div>
          {pickup.readyMarker && (
            <div>
              <dt>Ready marker</dt>
              <dd>{readyMarkerInWords(pickup.readyMarker)}</dd>
            </div>
          )}
          <div>
            <dt>Goes into</dt>
            <dd>{targetInWords(pickup, datasets)}</dd>
          </div>
          {pickup.mappingName && (
            <div>
              <dt>CSV mapping</dt>
              <dd>{pickup.mappingName}</dd>
            </div>
          )}
          <div>
            <dt>After import</dt>
            <dd>
              {pickup.afterImport === 'leave'
                ? 'left in the folder'
                : pickup.afterImport === 'move'
                  ? `moved to ${pickup.archivePath}`
                  : 'deleted from the folder (it cannot be brought back)'}
            </dd>
          </div>
        </dl>
        {mode === 'view' && (
          <div className="buttons">
            <button
              type="button"
              onClick={() => runNow.mutate()}
              disabled={runNow.isPending || going}
              aria-label={`${going ? 'Running' : 'Run now'}: ${title}`}
            >
              {going ? 'Running…' : 'Run now'}
            </button>
            <button type="button" className="secondary" onClick={() => setMode('edit')} aria-label={`Edit the pickup: ${title}`}>
              Edit
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => setEnabled.mutate(!pickup.enabled)}
              disabled={setEnabled.isPending}
              aria-label={`${pickup.enabled ? 'Pause' : 'Resume'} the pickup: ${title}`}
            >
              {pickup.enabled ? 'Pause' : 'Resume'}
            </button>
            <button type="button" className="danger" onClick={() => setMode('delete')} aria-label={`Delete the pickup: ${title}`}>
              Delete
            </button>
          </div>
        )}
        <ErrorMessage error={runNow.error ?? setEnabled.error} />
        {mode === 'edit' && <PickupForm connection={connection} pickup={pickup} onDone={() => setMode('view')} />}
        {mode === 'delete' && (
          <ConfirmSubform
            label={`Delete the pickup: ${title}`}
            error={remove.error}
            pending={remove.isPending}
            confirmLabel="Delete the pickup"
            pendingLabel="Deleting…"
            danger
            onConfirm={() => remove.mutate()}
            onCancel={() => setMode('view')}
          >
            Delete this pickup? {title} are no longer picked up, and the history of its runs is deleted with it. The files already imported stay imported.{' '}
            <strong>This cannot be undone.</strong>
          </ConfirmSubform>
        )}
        <RunHistory runs={runs} pickup={pickup} title={title} datasets={datasets} />
      </article>
    </li>
  );
}

/** A pickup's runs, newest first, each with its files; read again while one waits or runs. */
/**
 * A pickup's runs, newest first, read again while one waits or runs; once it has ended, the
 * connection's state (its last success or error) and the pickup's next look are read again.
 */
function usePickupRuns(connection: Connection, pickup: Pickup) {
  const { recon } = useSession();
  const client = useQueryClient();
  const runs = useQuery({
    queryKey: ['pickup-runs', pickup.id],
    queryFn: () => recon.connections.runs(connection.id, pickup.id),
    refetchInterval: (query) => ((query.state.data ?? []).some(isGoing) ? RUN_POLL_MILLISECONDS : false),
  });
  const going = (runs.data ?? []).some(isGoing);
  // The newest run once it has ended (null: none has, undefined: not read yet). A run can end
  // before the list is first read again (a folder that is gone fails at once), and still changes
  // the connection's state.
  const newest = runs.data?.[0];
  const newestEnded = runs.data === undefined ? undefined : newest && !isGoing(newest) ? newest.id : null;
  const wasGoing = useRef(false);
  const lastEnded = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    const endedSince = lastEnded.current !== undefined && newestEnded != null && newestEnded !== lastEnded.current;
    if ((wasGoing.current && !going) || endedSince) {
      void client.invalidateQueries({ queryKey: CONNECTIONS_KEY });
      void client.invalidateQueries({ queryKey: ['pickups', connection.id] });
    }
    wasGoing.current = going;
    if (newestEnded !== undefined) lastEnded.current = newestEnded;
  }, [going, newestEnded, client, connection.id]);
  return { runs, going };
}

function isGoing(run: PickupRun): boolean {
  return run.status === 'queued' || run.status === 'running';
}

/** A pickup's runs, each with its files. */
function RunHistory({
  runs,
  pickup,
  title,
  datasets,
}: {
  runs: ReturnType<typeof usePickupRuns>['runs'];
  pickup: Pickup;
  title: string;
  datasets: NamedDataset[];
}) {
  const [all, setAll] = useState(false);
  const list = runs.data ?? [];
  const shown = all ? list : list.slice(0, RUNS_SHOWN);
  return (
    <div className="pickup-history">
      <h5>History</h5>
      {runs.isPending && (
        <p role="status" className="placeholder">
          Loading the runs…
        </p>
      )}
      <ErrorMessage error={runs.error} />
      {runs.data && list.length === 0 && <p className="empty">No runs yet. Run it now, or wait for its schedule.</p>}
      {shown.length > 0 && (
        <ol className="runs" aria-label={`Runs of the pickup: ${title}`}>
          {shown.map((run) => (
            <RunItem key={run.id} run={run} pickup={pickup} datasets={datasets} />
          ))}
        </ol>
      )}
      {!all && list.length > RUNS_SHOWN && (
        <button type="button" className="secondary small" onClick={() => setAll(true)}>
          Show {formatCount(list.length - RUNS_SHOWN)} older {list.length - RUNS_SHOWN === 1 ? 'run' : 'runs'}
        </button>
      )}
    </div>
  );
}

function RunItem({ run, pickup, datasets }: { run: PickupRun; pickup: Pickup; datasets: NamedDataset[] }) {
  const when = run.startedAt ?? run.createdAt;
  const counts = runCounts(run);
  return (
    <li className={`run run-${run.status}`} aria-label={`Run of ${formatDateTimeSeconds(when)}`}>
      <p className="run-head">
        <Moment value={when} seconds /> <span className="hint">{run.trigger === 'manual' ? 'run now' : 'on schedule'}</span>{' '}
        <strong className={run.status === 'failed' ? 'error' : undefined}>{runStatusInWords(run)}</strong>
        {counts && <span className="hint"> · {counts}</span>}
        {run.finishedAt && run.status !== 'queued' && (
          <span className="hint">
            {' '}
            · ended <Moment value={run.finishedAt} seconds />
          </span>
        )}
      </p>
      {run.status === 'failed' && run.error && <p className="error">{connectionProblemInWords(run.error)}</p>}
      {run.files.length > 0 && (
        <ul className="run-files">
          {run.files.map((file) => (
            <FileOutcome key={file.name} file={file} pickup={pickup} datasets={datasets} />
          ))}
        </ul>
      )}
    </li>
  );
}

function FileOutcome({ file, pickup, datasets }: { file: PickupFile; pickup: Pickup; datasets: NamedDataset[] }) {
  const dataset = datasets.find((candidate) => candidate.id === file.datasetId);
  const after = afterImportInWords(file, pickup.archivePath);
  const importLink = file.importId ? `/imports?import=${encodeURIComponent(file.importId)}` : null;
  return (
    <li className={`file-outcome outcome-${file.outcome}`}>
      <span className="file-name">{file.name}</span> <span className="hint">({sizeInWords(file.sizeBytes)})</span>:{' '}
      <strong>{OUTCOME_WORDS[file.outcome]}</strong>
      {file.outcome === 'imported' && (
        <>
          {dataset ? ` into ${dataset.sourceName} · ${dataset.name}` : ''}
          {after ? `, then ${after}` : ''}. {importLink && <Link to={importLink}>See the import of {file.name}</Link>}
        </>
      )}
      {file.outcome === 'already_imported' && (
        <>
          : the same contents were imported before, under this or another name, so nothing was added{after ? `; ${after}` : ''}.{' '}
          {importLink && <Link to={importLink}>See the earlier import</Link>}
        </>
      )}
      {file.outcome === 'held' && <>: {serverWords(file.message ?? '', 'routing found no dataset for it; it stays where it is until one is found.')}</>}
      {fileTooLarge(file) && <>: {fileProblemInWords(file.message ?? '', 'the file is larger than an import takes.')}</>}
      {file.outcome === 'failed' && !fileTooLarge(file) && (
        <>
          : {serverWords(file.message ?? '', 'the import refused the file.')} {importLink && <Link to={importLink}>See the failed import</Link>}
        </>
      )}
      {file.outcome === 'waiting' &&
        (pickup.readyMarker ? (
          <>
            : the file is taken once its ready marker {file.name}
            {pickup.readyMarker} is beside it.
          </>
        ) : (
          <>: the file is new or still being written; it is taken once it stays the same between two looks.</>
        ))}
      {(file.outcome === 'imported' || file.outcome === 'already_imported') && file.message && (
        <p className="warning">{serverWords(file.message, 'It was imported, but left where it is.')}</p>
      )}
    </li>
  );
}

// The pickup form.

/** How a pickup's schedule is given: every N minutes, or at times of day in a time zone. */
const SCHEDULE_KINDS = [
  { value: 'interval', label: 'Every N minutes' },
  { value: 'times', label: 'At times of day' },
] as const;

interface PickupDraft {
  path: string;
  pattern: string;
  scheduleKind: (typeof SCHEDULE_KINDS)[number]['value'];
  intervalMinutes: string;
  timesOfDay: string;
  timeZone: string;
  waitForMarker: boolean;
  readyMarker: string;
  format: string;
  target: 'dataset' | 'account';
  datasetId: string;
  mappingName: string;
  afterImport: 'leave' | 'move' | 'delete';
  archivePath: string;
  enabled: boolean;
}

const PICKUP_LABELS = {
  path: 'Folder',
  pattern: 'File names',
  intervalMinutes: 'Every',
  timesOfDay: 'Times of day',
  timeZone: 'Time zone',
  readyMarker: 'Marker',
  format: 'Format',
  datasetId: 'Dataset',
  mappingName: 'CSV mapping',
  archivePath: 'Archive folder',
} as const;
const PICKUP_POINTERS: Record<string, keyof PickupDraft> = {
  '/path': 'path',
  '/pattern': 'pattern',
  '/intervalMinutes': 'intervalMinutes',
  '/timesOfDay': 'timesOfDay',
  '/timeZone': 'timeZone',
  '/readyMarker': 'readyMarker',
  '/datasetId': 'datasetId',
  '/mappingName': 'mappingName',
  '/archivePath': 'archivePath',
};

function draftOf(pickup: Pickup | undefined, firstDatasetId: string): PickupDraft {
  return {
    path: pickup?.path ?? '',
    pattern: pickup?.pattern ?? '*',
    scheduleKind: pickup?.timesOfDay ? 'times' : 'interval',
    intervalMinutes: String(pickup?.intervalMinutes ?? 15),
    timesOfDay: (pickup?.timesOfDay ?? ['06:00']).join(', '),
    timeZone: pickup?.timeZone ?? browserTimeZone(),
    waitForMarker: (pickup?.readyMarker ?? null) !== null,
    readyMarker: pickup?.readyMarker ?? '.done',
    format: pickup?.format ?? '',
    target: pickup?.routeByAccount ? 'account' : 'dataset',
    datasetId: pickup?.datasetId ?? firstDatasetId,
    mappingName: pickup?.mappingName ?? '',
    afterImport: pickup?.afterImport ?? 'leave',
    archivePath: pickup?.archivePath ?? '',
    enabled: pickup?.enabled ?? true,
  };
}

function PickupForm({ connection, pickup, onDone }: { connection: Connection; pickup?: Pickup; onDone: () => void }) {
  const { recon } = useSession();
  const client = useQueryClient();
  const datasets = useDatasets().filter((dataset) => dataset.status !== 'archived');
  const headingId = useId();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<PickupDraft>({ values: draftOf(pickup, datasets[0]?.id ?? ''), resetOptions: { keepDirtyValues: true } });
  const target = watch('target');
  const datasetId = watch('datasetId');
  const afterImport = watch('afterImport');
  const format = watch('format');
  const scheduleKind = watch('scheduleKind');
  const waitForMarker = watch('waitForMarker');
  const marker = watch('readyMarker');
  const zone = watch('timeZone');
  const zones = timeZones();
  if (zone && !zones.includes(zone)) zones.unshift(zone);
  const mappings = useQuery({
    queryKey: ['import-mappings', datasetId],
    enabled: target === 'dataset' && datasetId !== '',
    queryFn: () => recon.imports.mappings.list(datasetId),
  });
  const mappingNames = (mappings.data ?? []).map((mapping) => mapping.name);
  if (pickup?.mappingName && !mappingNames.includes(pickup.mappingName) && datasetId === pickup.datasetId) mappingNames.push(pickup.mappingName);

  async function submit(draft: PickupDraft) {
    const times = parseTimesOfDay(draft.timesOfDay, TIMES_OF_DAY_LIMIT);
    // One schedule: the other is let go of (a pickup changed to times of day drops its interval on the server).
    const schedule: Pick<NewPickup, 'intervalMinutes' | 'timesOfDay' | 'timeZone'> =
      draft.scheduleKind === 'times' && 'times' in times
        ? { timesOfDay: times.times, timeZone: draft.timeZone }
        : { intervalMinutes: Number(draft.intervalMinutes), timesOfDay: null, timeZone: null };
    const body: NewPickup = {
      path: draft.path.trim(),
      pattern: draft.pattern.trim(),
      ...schedule,
      readyMarker: draft.waitForMarker ? draft.readyMarker.trim() : null,
      format: draft.format === '' ? null : (draft.format as NonNullable<NewPickup['format']>),
      mappingName: draft.target === 'dataset' && draft.mappingName !== '' ? draft.mappingName : null,
      datasetId: draft.target === 'dataset' ? draft.datasetId : null,
      routeByAccount: draft.target === 'account',
      afterImport: draft.afterImport,
      archivePath: draft.afterImport === 'move' ? draft.archivePath.trim() : null,
      enabled: draft.enabled,
    };
    try {
      if (pickup) await recon.connections.updatePickup(connection.id, pickup.id, body);
      else await recon.connections.createPickup(connection.id, body);
      void client.invalidateQueries({ queryKey: ['pickups', connection.id] });
      onDone();
    } catch (caught) {
      showConnectionErrors(caught, setError, PICKUP_LABELS, PICKUP_POINTERS);
    }
  }

  const label = pickup ? `Edit the pickup: ${pickupTitle(connection, pickup).replace(/^Files/, 'files')}` : `New pickup of ${connection.name}`;
  return (
    <form className="subform pickup-form" onSubmit={handleSubmit(submit)} noValidate aria-labelledby={headingId}>
      <h4 id={headingId}>{label}</h4>
      <div className="row">
        <Field label="Folder" error={errors.path} className="grow">
          {(aria) => (
            <input
              placeholder={connection.kind === 'sftp' ? 'e.g. out/camt053' : 'e.g. in'}
              {...aria}
              {...register(
                'path',
                required(
                  connection.kind === 'sftp'
                    ? 'Enter the folder on the server the bank puts the files in.'
                    : 'Enter the folder the files are put in; . for the connection’s own folder.',
                ),
              )}
            />
          )}
        </Field>
        <Field label="File names" error={errors.pattern} className="grow">
          {(aria) => (
            <input
              placeholder="e.g. *.xml"
              {...aria}
              {...register('pattern', {
                validate: (value) =>
                  (value.trim() !== '' && !value.includes('/')) || 'Enter which files to take, as a name pattern such as *.xml or camt053_*.xml (no folder).',
              })}
            />
          )}
        </Field>
      </div>
      <p className="hint">
        {connection.kind === 'folder' ? 'The folder is inside the connection’s folder; . is the connection’s folder itself. ' : ''}* stands for any characters,
        ? for one. Subfolders are not read.
      </p>
      <fieldset>
        <legend>Schedule</legend>
        {SCHEDULE_KINDS.map((kind) => (
          <label className="chip" key={kind.value}>
            <input type="radio" value={kind.value} {...register('scheduleKind')} />
            <span>{kind.label}</span>
          </label>
        ))}
        {scheduleKind === 'interval' && (
          <div className="schedule-interval">
            <Field label="Every" error={errors.intervalMinutes}>
              {(aria) => (
                <span className="with-unit">
                  <input
                    inputMode="numeric"
                    className="minutes-input"
                    {...aria}
                    {...register('intervalMinutes', {
                      validate: (value) =>
                        (/^\d+$/.test(value.trim()) && Number(value) >= INTERVAL_MIN && Number(value) <= INTERVAL_MAX) ||
                        `Enter how many minutes between two looks, from ${INTERVAL_MIN} to ${formatCount(INTERVAL_MAX)} (a week).`,
                    })}
                  />{' '}
                  minutes
                </span>
              )}
            </Field>
          </div>
        )}
        {scheduleKind === 'times' && (
          <div className="row schedule-times">
            <Field label="Times of day" error={errors.timesOfDay} className="grow">
              {(aria) => (
                <input
                  placeholder="e.g. 06:00, 14:30"
                  {...aria}
                  {...register('timesOfDay', {
                    validate: (value) => {
                      const parsed = parseTimesOfDay(value, TIMES_OF_DAY_LIMIT);
                      return 'times' in parsed || parsed.problem;
                    },
                  })}
                />
              )}
            </Field>
            <Field label="Time zone" error={errors.timeZone}>
              {(aria) => (
                <select {...aria} {...register('timeZone', required('Choose the time zone the times of day are read in.'))}>
                  {zones.map((name) => (
                    <option key={name} value={name}>
                      {name.replace(/_/g, ' ')}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        )}
        {scheduleKind === 'times' && (
          <p className="hint">
            Hours and minutes on a 24-hour clock, separated by commas, read on the clocks of the time zone: 06:30 stays 06:30 there when summer time begins or
            ends.
          </p>
        )}
        <label className="chip">
          <input type="checkbox" {...register('enabled')} />
          <span>On schedule (when off, the pickup runs only when you press Run now)</span>
        </label>
      </fieldset>
      <fieldset>
        <legend>When a file is ready</legend>
        <label className="chip">
          <input type="checkbox" {...register('waitForMarker')} />
          <span>Wait for a ready marker</span>
        </label>
        {waitForMarker && (
          <Field label="Marker" error={errors.readyMarker}>
            {(aria) => (
              <input
                className="marker-input"
                placeholder="e.g. .done"
                {...aria}
                {...register('readyMarker', {
                  validate: (value) =>
                    READY_MARKER_PATTERN.test(value.trim()) ||
                    'Enter the ending the sender adds to the file’s name, such as .done or .ok: letters, digits, dots, dashes and underscores, at most 50.',
                })}
              />
            )}
          </Field>
        )}
        <p className="hint">
          {waitForMarker
            ? `A file is taken only once the sender puts a file of its name followed by the marker beside it (statement.xml waits for statement.xml${marker.trim() || '.done'}).`
            : 'Without a marker, a file is taken once its size and time stay the same between two looks, so a file still being written is not taken.'}
        </p>
      </fieldset>
      <div className="row">
        <label>
          Format
          <select {...register('format')}>
            <option value="">Detect it from each file</option>
            {FORMATS.map((candidate) => (
              <option key={candidate.value} value={candidate.value}>
                {candidate.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset>
        <legend>Where the files go</legend>
        <label className="chip">
          <input type="radio" value="dataset" {...register('target')} />
          <span>Into one dataset</span>
        </label>
        <label className="chip">
          <input type="radio" value="account" {...register('target')} />
          <span>
            Route by the statement's account <span className="hint">(each statement into the dataset that names its account; an unknown account is held)</span>
          </span>
        </label>
        {target === 'dataset' && (
          <div className="row">
            <Field label="Dataset" error={errors.datasetId}>
              {(aria) => (
                <select {...aria} {...register('datasetId', required('Choose the dataset the files go into.'))}>
                  {datasets.length === 0 && <option value="">No dataset yet: create one on the Datasets page</option>}
                  {datasets.map((dataset) => (
                    <option key={dataset.id} value={dataset.id}>
                      {dataset.sourceName} · {dataset.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {(format === '' || format === 'csv') && (
              <Field label="CSV mapping" error={errors.mappingName}>
                {(aria) => (
                  <select {...aria} {...register('mappingName')}>
                    <option value="">None (the header names the columns, or the files are not CSV)</option>
                    {mappingNames.map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
          </div>
        )}
        {target === 'dataset' && (format === '' || format === 'csv') && (
          <p className="hint">A CSV mapping is saved on its dataset when a CSV file is first imported there by hand, on the Imports page.</p>
        )}
        {target === 'account' && <p className="hint">CSV files name no account, so they are held: route them into one dataset instead.</p>}
      </fieldset>
      <fieldset>
        <legend>After a file is imported</legend>
        <label className="chip">
          <input type="radio" value="leave" {...register('afterImport')} />
          <span>Leave it where it is</span>
        </label>
        <label className="chip">
          <input type="radio" value="move" {...register('afterImport')} />
          <span>Move it to an archive folder</span>
        </label>
        <label className="chip">
          <input type="radio" value="delete" {...register('afterImport')} />
          <span>Delete it</span>
        </label>
        {afterImport === 'move' && (
          <Field label="Archive folder" error={errors.archivePath}>
            {(aria) => (
              <input
                className="wide"
                placeholder={connection.kind === 'sftp' ? 'e.g. out/done' : 'e.g. done'}
                {...aria}
                {...register('archivePath', required('Enter the folder the files are moved to; it must exist.'))}
              />
            )}
          </Field>
        )}
        {afterImport === 'delete' && (
          <p className="warning">
            Each file is deleted from the {connection.kind === 'sftp' ? 'server' : 'folder'} once imported. <strong>This cannot be undone</strong>: the file
            cannot be brought back there.
          </p>
        )}
      </fieldset>
      <FormError error={errors.root?.server} />
      <div className="buttons">
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : pickup ? 'Save the pickup' : 'Add the pickup'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
