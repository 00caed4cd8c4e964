import { Type } from '@sinclair/typebox';
import { CONNECTIONS_LIMIT, PICKUP_RUNS_LISTED, PICKUPS_PER_CONNECTION_LIMIT } from '../../domain/connections/connections.ts';
import { TIME_OF_DAY_PATTERN, TIMES_OF_DAY_LIMIT } from '../../domain/connections/schedules.ts';
import { IMPORT_FORMATS } from '../../domain/imports/statement-entries.ts';
import { Uuid } from './common.ts';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const ConnectionParams = Type.Object({ orgId: Uuid, connectionId: Uuid }, { additionalProperties: false });
export const PickupParams = Type.Object({ orgId: Uuid, connectionId: Uuid, pickupId: Uuid }, { additionalProperties: false });
export const PickupRunParams = Type.Object({ orgId: Uuid, connectionId: Uuid, pickupId: Uuid, runId: Uuid }, { additionalProperties: false });

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'What the connection is, e.g. "Deutsche Bank SFTP".' });
const Host = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9.:\\[\\]-]+$', description: "The SFTP server's host name or address." });
const Port = Type.Integer({ minimum: 1, maximum: 65535, description: '22 by default.' });
const Username = Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\s]+$', description: 'The user name the bank gave.' });
const AuthMethod = Type.Union([Type.Literal('generated_key'), Type.Literal('uploaded_key'), Type.Literal('password')], {
  description:
    'generated_key: the service makes an Ed25519 key pair and answers its public half (publicKey) to hand to the bank; uploaded_key: privateKey is sent ' +
    '(OpenSSH or PEM, Ed25519 or RSA, without a passphrase); password: password is sent.',
});
const PrivateKey = Type.String({ minLength: 1, maxLength: 20000, description: 'The private key (uploaded_key). Sealed at rest, never answered.' });
const Password = Type.String({ minLength: 1, maxLength: 1000, description: 'The password (password). Sealed at rest, never answered.' });
const FolderPath = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: 'A folder connection: the directory, relative to the directory the operator allows (CONNECTOR_FOLDER_ROOT).',
});
const Fingerprint = Type.String({
  pattern: '^SHA256:[A-Za-z0-9+/]{43}$',
  description: "The server's host key fingerprint, as the connection test shows it and `ssh-keygen -lf` prints it.",
});

export const CreateConnectionBody = Type.Object(
  {
    name: Name,
    kind: Type.Union([Type.Literal('sftp'), Type.Literal('folder')]),
    host: Type.Optional(Host),
    port: Type.Optional(Port),
    username: Type.Optional(Username),
    authMethod: Type.Optional(AuthMethod),
    privateKey: Type.Optional(PrivateKey),
    password: Type.Optional(Password),
    folderPath: Type.Optional(FolderPath),
  },
  { additionalProperties: false },
);

export const UpdateConnectionBody = Type.Object(
  {
    name: Type.Optional(Name),
    host: Type.Optional(Host),
    port: Type.Optional(Port),
    username: Type.Optional(Username),
    authMethod: Type.Optional(AuthMethod),
    privateKey: Type.Optional(PrivateKey),
    password: Type.Optional(Password),
    folderPath: Type.Optional(FolderPath),
    hostKeyFingerprint: Type.Optional(
      Type.Union([Fingerprint, Type.Null()], {
        description:
          "Confirms the server's host key: the fingerprint the test showed, once checked with the bank (another than the last test saw is refused). " +
          'From then on a server with another key is refused. null forgets it.',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ConnectionSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  kind: Type.Union([Type.Literal('sftp'), Type.Literal('folder')]),
  host: NullableString,
  port: Type.Union([Type.Integer(), Type.Null()]),
  username: NullableString,
  authMethod: Type.Union([AuthMethod, Type.Null()]),
  publicKey: Type.Union([Type.String(), Type.Null()], {
    description: 'The public half of the key the connection logs in with (an OpenSSH authorized_keys line): hand it to the bank.',
  }),
  hostKeyFingerprint: Type.Union([Type.String(), Type.Null()], { description: "The confirmed host key's fingerprint; null until confirmed." }),
  folderPath: NullableString,
  lastSuccessAt: NullableTimestamp,
  lastError: Type.Union([Type.String(), Type.Null()], { description: 'What went wrong the last time a run failed, in words.' }),
  lastErrorAt: NullableTimestamp,
  consecutiveFailures: Type.Integer({ description: 'Runs failed in a row; 0 after a success.' }),
  failingSince: Type.Union([Timestamp, Type.Null()], { description: 'Since when every run has failed; null after a success.' }),
  createdAt: Timestamp,
  createdBy: Type.String(),
  updatedAt: Timestamp,
});

export const ConnectionListSchema = Type.Array(ConnectionSchema, { description: `Oldest first; at most ${CONNECTIONS_LIMIT}.` });

export const ConnectionTestSchema = Type.Object({
  ok: Type.Boolean({ description: 'Whether the service logged in and read every pickup folder.' }),
  hostKeyFingerprint: Type.Union([Type.String(), Type.Null()], { description: 'The host key the server showed (SFTP).' }),
  hostKeyStatus: Type.Union([Type.Literal('confirmed'), Type.Literal('unconfirmed'), Type.Literal('changed'), Type.Null()], {
    description: 'unconfirmed: confirm hostKeyFingerprint (PATCH) once checked with the bank; changed: the server shows another key than the confirmed one.',
  }),
  message: Type.String({ description: 'What the test found, in words.' }),
});

const Path = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: 'The folder on the server, e.g. /out/camt053 (a folder connection: within its folder).',
});
/** A marker's ending: letters, digits, dot, dash and underscore (".done", ".ok", "_READY"). */
const READY_MARKER_PATTERN = '^[A-Za-z0-9._-]+$';
const Pattern = Type.String({ minLength: 1, maxLength: 200, description: 'Which files of the folder: a name pattern with * ? and [..], e.g. *.xml.' });

const pickupFields = {
  path: Path,
  pattern: Pattern,
  intervalMinutes: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 10080, description: 'How often the folder is looked at, in minutes; or timesOfDay with timeZone.' }),
  ),
  timesOfDay: Type.Optional(
    Type.Union(
      [
        Type.Array(Type.String({ pattern: TIME_OF_DAY_PATTERN, description: 'HH:MM, 24-hour clock.' }), {
          minItems: 1,
          maxItems: TIMES_OF_DAY_LIMIT,
        }),
        Type.Null(),
      ],
      {
        description:
          `The times of day the folder is looked at, in timeZone, e.g. ["06:00", "14:30"] (at most ${TIMES_OF_DAY_LIMIT}); instead of intervalMinutes. ` +
          'A time the clock jumps over (summer time begins) runs as late as the jump makes it; a time that happens twice (summer time ends) runs once, the first time.',
      },
    ),
  ),
  timeZone: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
      description: 'The time zone of timesOfDay: an IANA name such as Europe/Berlin, or UTC. Given with timesOfDay, and only then.',
    }),
  ),
  format: Type.Optional(
    Type.Union([Type.Union(IMPORT_FORMATS.map((format) => Type.Literal(format))), Type.Null()], { description: "The files' format; null: detected." }),
  ),
  mappingName: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], { description: 'A CSV mapping saved on the target dataset, by its name.' }),
  ),
  datasetId: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'Where every file goes; or routeByAccount.' })),
  routeByAccount: Type.Optional(
    Type.Boolean({
      description:
        "Each statement goes to the dataset whose accountId is the statement's account; a file of an unknown account is held (reported in each run) until a dataset names it.",
    }),
  ),
  afterImport: Type.Optional(
    Type.Union([Type.Literal('leave'), Type.Literal('move'), Type.Literal('delete')], {
      description: 'What is done with a file once imported: leave it (default), move it to archivePath, or delete it.',
    }),
  ),
  archivePath: Type.Optional(Type.Union([Path, Type.Null()], { description: 'Where imported files are moved (afterImport move).' })),
  readyMarker: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 50, pattern: READY_MARKER_PATTERN }), Type.Null()], {
      description:
        'A file is taken only once the bank has put its marker beside it: the file name followed by this, e.g. ".done" (statement.xml is taken once ' +
        'statement.xml.done exists). Files ending with it are markers, never imported; after the import the marker is moved or deleted with its file. ' +
        'null (default): a file is taken once its size and time stay the same between two looks.',
    }),
  ),
  enabled: Type.Optional(Type.Boolean({ description: 'true by default; false stops the schedule (run now still works).' })),
};

export const CreatePickupBody = Type.Object(pickupFields, { additionalProperties: false });
export const UpdatePickupBody = Type.Partial(Type.Object(pickupFields), { additionalProperties: false, minProperties: 1 });

export const PickupSchema = Type.Object({
  id: Uuid,
  connectionId: Uuid,
  path: Type.String(),
  pattern: Type.String(),
  intervalMinutes: Type.Union([Type.Integer(), Type.Null()], { description: 'null when the pickup runs at timesOfDay.' }),
  timesOfDay: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'The times of day (HH:MM) in timeZone, in the order of the day; null: every intervalMinutes.',
  }),
  timeZone: NullableString,
  format: NullableString,
  mappingName: NullableString,
  datasetId: Type.Union([Uuid, Type.Null()]),
  routeByAccount: Type.Boolean(),
  afterImport: Type.Union([Type.Literal('leave'), Type.Literal('move'), Type.Literal('delete')]),
  archivePath: NullableString,
  readyMarker: NullableString,
  enabled: Type.Boolean(),
  nextRunAt: Type.String({ format: 'date-time', description: 'When the schedule runs the pickup next (backed off while the connection fails).' }),
  createdAt: Timestamp,
  createdBy: Type.String(),
  updatedAt: Timestamp,
});

export const PickupListSchema = Type.Array(PickupSchema, { description: `Oldest first; at most ${PICKUPS_PER_CONNECTION_LIMIT}.` });

export const PickupFileSchema = Type.Object({
  name: Type.String(),
  sizeBytes: Type.Integer(),
  outcome: Type.Union([Type.Literal('imported'), Type.Literal('already_imported'), Type.Literal('held'), Type.Literal('failed'), Type.Literal('waiting')], {
    description:
      'imported (importId: the import); already_imported (these bytes were imported before, importId: that import); held (the target cannot take it now — routing found no dataset, the dataset is gone, ' +
      'the mapping is not saved on it —: message says why and what to do; tried again every run); failed (the file itself was refused; message: the error; ' +
      'importId: the failed import, when one was recorded; the same bytes are not tried again); waiting (the file is new or still being written, or its readyMarker is not there yet).',
  }),
  importId: Type.Union([Uuid, Type.Null()]),
  datasetId: Type.Union([Uuid, Type.Null()]),
  message: NullableString,
  afterImport: Type.Union([Type.Literal('left'), Type.Literal('moved'), Type.Literal('deleted'), Type.Null()]),
});

export const PickupRunSchema = Type.Object({
  id: Uuid,
  pickupId: Uuid,
  connectionId: Uuid,
  trigger: Type.Union([Type.Literal('schedule'), Type.Literal('manual')]),
  status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('skipped')], {
    description: 'skipped: another run of the pickup was going on.',
  }),
  files: Type.Array(PickupFileSchema, { description: 'Every file of the folder that fits the pattern, with what happened to it.' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why a failed run failed (the connection), in words.' }),
  createdAt: Timestamp,
  startedAt: NullableTimestamp,
  finishedAt: NullableTimestamp,
});

export const PickupRunListSchema = Type.Array(PickupRunSchema, { description: `Newest first; the last ${PICKUP_RUNS_LISTED}.` });
