import { parseArgs } from 'node:util';
import type { Config } from './config.ts';
import { UsageError } from './cli/usage-error.ts';

/** The commands that talk to a server through the SDK (src/cli/client); kept here so that help answers at once. */
const CLIENT_COMMANDS = [
  'login',
  'logout',
  'profiles',
  'sources',
  'datasets',
  'transactions',
  'export',
  'match',
  'unmatch',
  'imports',
  'rules',
  'runs',
  'suggestions',
  'reconciliations',
  'exceptions',
  'connections',
];

// The server, the store and the domain are loaded only by the commands that use them, so that
// `help` and a mistyped command answer at once instead of after loading the whole service.

const USAGE = `ledger-recon — ledger reconciliation service

Working with a server (through the API; log in once, then every command uses the profile):
  ledger-recon login --server URL --client-id ID [--profile NAME]
                                             check the credentials and keep them (the secret is asked for)
  ledger-recon profiles | logout [--profile NAME]
                                             list the profiles / forget one
  ledger-recon sources | datasets [create]   list or create sources and datasets
  ledger-recon import FILE --dataset ID      import a statement or CSV file, with progress, then the report
  ledger-recon imports undo IMPORT_ID [--unmatch] [--dry-run]
                                             remove the transactions an import created
  ledger-recon transactions --dataset ID [--status S] [--search Q] [--from T] [--to T] [--format table|json|csv]
  ledger-recon export --dataset ID > file.csv
  ledger-recon match --origin ID --target ID | unmatch MATCH_ID
  ledger-recon rules [list|apply FILE.json|validate FILE.json]
  ledger-recon runs [start [--dry-run]|list|show|results|commit|revert|cancel]
  ledger-recon suggestions [list|confirm ID|reject ID]
  ledger-recon reconciliations [list|create|statement ID DATE [--json]|periods ID|prepare|approve|reopen ID DATE]
                                             month-end close (docs/CLOSE.md)
  ledger-recon exceptions [list ID|show|update|update-many|comment|resolve|reopen]
                                             the exceptions queue of the month-end close
  ledger-recon connections [list|add-sftp|add-folder|test|confirm-host-key|add-pickup|run|runs]
                                             files picked up from SFTP servers and folders (docs/CONNECTIONS.md)
  ledger-recon COMMAND --help                the options of a command (docs/CLI.md has them all)

Running a server (these open the store themselves):
  ledger-recon serve                         start the HTTP server (also: npm start)
  ledger-recon migrate                       apply pending database migrations
  ledger-recon init --org NAME --admin-email EMAIL [--json]
                                             create an organization with an Administrator user
                                             and an Administrator API client
  ledger-recon demo                          new credentials for the demo organization (a fresh client
                                             secret and user password), or a demo if there is none
  ledger-recon import FILE --org ORG --dataset ID [--format F] [--encoding E]
                     [--mapping MAPPING.json | --mapping-name NAME] [--allow-other-account] [--json]
                                             import a file straight into the store (no server
                                             needed), all or nothing, and print the report
  ledger-recon copy-store --to postgres://...
                                             copy the embedded store (DATA_DIR) into an empty
                                             PostgreSQL database, which it migrates first
  ledger-recon keys rotate [--activate-in SECONDS]
                                             publish a new signing key now; it signs after SECONDS
                                             (default KEY_PUBLISH_LEAD_SECONDS, 3600)
  ledger-recon keys rotate-connection-secrets
                                             reseal the connections' secrets sealed with
                                             PREVIOUS_SECRET_ENCRYPTION_KEY under SECRET_ENCRYPTION_KEY
  ledger-recon help                          this text

Configuration comes from the environment: PORT, HOST, PUBLIC_URL, AUDIENCE, TOKEN_TTL_SECONDS,
DATA_DIR (embedded store, default ./data) or DATABASE_URL (PostgreSQL). With the embedded store,
commands other than serve need the server to be stopped. Run init with the same PUBLIC_URL (or
PORT and HOST) as the server: the audience and URLs it prints come from them.
`;

/** The configuration, read from the environment only by the commands that need it. */
async function loadConfig(): Promise<Config> {
  return (await import('./config.ts')).loadConfig();
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return (await import('./server.ts')).serve(await loadConfig());
    case 'demo':
      return demoCommand(await loadConfig(), rest);
    case 'copy-store':
      return copyStoreCommand(await loadConfig(), rest);
    case 'import':
      // With --org, the admin import straight into the store; otherwise through the server.
      if (rest.some((argument) => argument === '--org' || argument.startsWith('--org='))) {
        return (await import('./cli/import-command.ts')).importCommand(await loadConfig(), rest);
      }
      return (await import('./cli/client/program.ts')).runClientCommand(argv);
    case 'migrate':
      return migrateCommand(await loadConfig());
    case 'init':
      return initCommand(await loadConfig(), rest);
    case 'keys':
      return keysCommand(await loadConfig(), rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return;
    default:
      if (CLIENT_COMMANDS.includes(command)) return (await import('./cli/client/program.ts')).runClientCommand(argv);
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function migrateCommand(config: Config): Promise<void> {
  const { openRuntime } = await import('./runtime.ts');
  const runtime = await openRuntime(config, { ensureSigningKey: false });
  await runtime.close();
  process.stdout.write(
    runtime.appliedMigrations.length === 0 ? 'the schema is up to date; no migration applied\n' : `applied: ${runtime.appliedMigrations.join(', ')}\n`,
  );
}

async function initCommand(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { org: { type: 'string' }, 'admin-email': { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
  });
  if (!values.org) throw new UsageError('init needs --org NAME');
  if (!values['admin-email']) throw new UsageError('init needs --admin-email EMAIL');
  const { openRuntime } = await import('./runtime.ts');
  const { createOrganization } = await import('./domain/organizations.ts');
  const runtime = await openRuntime(config);
  try {
    const created = await createOrganization(runtime.database, runtime.services.apiClients, {
      name: values.org,
      adminEmail: values['admin-email'],
      createdBy: 'cli:init',
    });
    const result = {
      orgId: created.orgId,
      user: created.user,
      client: created.client,
      audience: config.audience,
      tokenUrl: `${config.publicUrl}/oauth/token`,
      apiBaseUrl: `${config.publicUrl}/v1/api/${created.orgId}`,
    };
    if (values.json) {
      process.stdout.write(JSON.stringify(result) + '\n');
    } else {
      process.stdout.write(
        [
          `organization "${values.org}" created: ${result.orgId}`,
          `  web login:     ${result.user.email} / ${result.user.password}`,
          `  client id:     ${result.client.clientId}`,
          `  client secret: ${result.client.clientSecret}   (shown once)`,
          `  token URL:     ${result.tokenUrl}   audience: ${result.audience}`,
          `  API base URL:  ${result.apiBaseUrl}`,
          '',
        ].join('\n'),
      );
    }
  } finally {
    await runtime.close();
  }
}

async function keysCommand(config: Config, args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  if (subcommand === 'rotate-connection-secrets') return rotateConnectionSecrets(config, rest);
  if (subcommand !== 'rotate') {
    throw new UsageError('the keys command has two subcommands: keys rotate [--activate-in SECONDS], keys rotate-connection-secrets');
  }
  const { values } = parseArgs({ args: rest, options: { 'activate-in': { type: 'string' } }, strict: true });
  const raw = values['activate-in'];
  if (raw !== undefined && !/^\d{1,7}$/.test(raw)) throw new UsageError('--activate-in takes a whole number of seconds');
  const activateInSeconds = raw === undefined ? config.keyPublishLeadSeconds : Number(raw);
  const { openRuntime } = await import('./runtime.ts');
  const runtime = await openRuntime(config);
  try {
    const { kid } = await runtime.services.signingKeys.rotate(activateInSeconds);
    const activatesAt = new Date(Date.now() + activateInSeconds * 1000).toISOString();
    process.stdout.write(
      `new signing key ${kid} is published in the JWKS now and signs tokens from ${activatesAt}; ` +
        `the previous key stays published until the tokens it signed have expired (${config.tokenTtlSeconds} s after that)\n`,
    );
  } finally {
    await runtime.close();
  }
}

/**
 * Reseals every connection secret sealed with PREVIOUS_SECRET_ENCRYPTION_KEY under
 * SECRET_ENCRYPTION_KEY, in one transaction (docs/CONNECTIONS.md, "Rotating the key").
 */
async function rotateConnectionSecrets(config: Config, args: string[]): Promise<void> {
  parseArgs({ args, options: {}, strict: true });
  const previous = process.env.PREVIOUS_SECRET_ENCRYPTION_KEY;
  if (!previous) throw new UsageError('set PREVIOUS_SECRET_ENCRYPTION_KEY to the key the secrets were sealed with, and SECRET_ENCRYPTION_KEY to the new one');
  if (config.secretEncryptionKey === null) throw new UsageError('set SECRET_ENCRYPTION_KEY to the new key');
  const { openRuntime } = await import('./runtime.ts');
  const runtime = await openRuntime(config);
  try {
    const outcome = await runtime.services.connections.resealSecrets(previous);
    process.stdout.write(
      `${outcome.resealed} connection secret(s) resealed under the new key; ${outcome.current} already were` +
        (outcome.unknown > 0 ? `; ${outcome.unknown} sealed with neither key were left as they are (those connections need their secret again)` : '') +
        '\n',
    );
  } finally {
    await runtime.close();
  }
}

async function demoCommand(config: Config, args: string[]): Promise<void> {
  parseArgs({ args, options: {}, strict: true });
  const { openRuntime } = await import('./runtime.ts');
  const { renewDemoCredentials } = await import('./domain/demo-seed.ts');
  const { demoBannerLines } = await import('./server.ts');
  const runtime = await openRuntime(config);
  try {
    const { demo, created } = await renewDemoCredentials(runtime.services);
    process.stdout.write(
      [
        created
          ? 'A demo organization was created. Its credentials (shown once; run this command again for new ones):'
          : 'The demo organization has new credentials; the ones printed before no longer work:',
        ...demoBannerLines(config, demo),
        '',
      ].join('\n'),
    );
  } finally {
    await runtime.close();
  }
}

async function copyStoreCommand(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { to: { type: 'string' } }, strict: true });
  if (!values.to || !/^postgres(ql)?:\/\//.test(values.to))
    throw new UsageError('copy-store needs --to postgres://user@host:port/database (an empty database)');
  if (config.databaseUrl) throw new UsageError('copy-store copies the embedded store (DATA_DIR); unset DATABASE_URL and name the target with --to');
  const { openRuntime } = await import('./runtime.ts');
  const { openDatabase } = await import('./db/database.ts');
  const { migrate } = await import('./db/migrate.ts');
  const { copyStore, storeIsEmpty } = await import('./db/store-copy.ts');
  const source = await openRuntime(config, { ensureSigningKey: false });
  const target = openDatabase({ databaseUrl: values.to, dataDirectory: null, poolSize: 2, statementTimeoutMilliseconds: 600_000 });
  try {
    await migrate(target);
    if (!(await storeIsEmpty(target))) {
      throw new UsageError('the target database already holds organizations; copy-store only copies into an empty database (create a new one)');
    }
    const targetUrl = new URL(values.to);
    process.stdout.write(`copying the embedded store in ${config.dataDirectory} to ${targetUrl.host}${targetUrl.pathname}\n`);
    const report = await copyStore(source.database, target, (table, rows) => process.stdout.write(`  ${table}: ${rows} rows\n`));
    const total = Object.values(report.rows).reduce((sum, rows) => sum + rows, 0);
    process.stdout.write(
      `copied ${total} rows in one transaction; start the server with DATABASE_URL set to the target (and the same SECRET_HASH_KEY, if one was set)\n`,
    );
  } finally {
    await target.close();
    await source.close();
  }
}

/** Errors a person can act on from their message alone: printed as one line, without a stack. */
const EXPLAINED_ERRORS = new Set(['ConfigError', 'StoreInUseError', 'AppError', 'StartupError']);

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    (error instanceof Error && error.name === 'TypeError' && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
  ) {
    process.stderr.write(`ledger-recon: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof Error && EXPLAINED_ERRORS.has(error.name)) {
    process.stderr.write(`ledger-recon: ${error.message}\n`);
    process.exit(1);
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : JSON.stringify(error);
  process.stderr.write(`ledger-recon: ${text}\n`);
  process.exit(1);
});
