import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { StoreInUseError } from './db/store-lock.ts';
import { createOrganization } from './domain/organizations.ts';
import { AppError } from './errors.ts';
import { openRuntime } from './runtime.ts';
import { serve } from './server.ts';

const USAGE = `ledger-recon — ledger reconciliation service

Usage:
  ledger-recon serve                         start the HTTP server (also: npm start)
  ledger-recon migrate                       apply pending database migrations
  ledger-recon init --org NAME --admin-email EMAIL [--json]
                                             create an organization with an Administrator user
                                             and an Administrator API client
  ledger-recon keys rotate [--activate-in SECONDS]
                                             publish a new signing key now; it signs after SECONDS
                                             (default KEY_PUBLISH_LEAD_SECONDS, 3600)
  ledger-recon help                          this text

Configuration comes from the environment: PORT, HOST, PUBLIC_URL, AUDIENCE, TOKEN_TTL_SECONDS,
DATA_DIR (embedded store, default ./data) or DATABASE_URL (PostgreSQL). With the embedded store,
commands other than serve need the server to be stopped. Run init with the same PUBLIC_URL (or
PORT and HOST) as the server: the audience and URLs it prints come from them.
`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(loadConfig());
    case 'migrate':
      return migrateCommand(loadConfig());
    case 'init':
      return initCommand(loadConfig(), rest);
    case 'keys':
      return keysCommand(loadConfig(), rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function migrateCommand(config: Config): Promise<void> {
  const runtime = await openRuntime(config, { ensureSigningKey: false });
  await runtime.close();
  process.stdout.write(
    runtime.appliedMigrations.length === 0
      ? 'the schema is up to date; no migration applied\n'
      : `applied: ${runtime.appliedMigrations.join(', ')}\n`,
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
  if (subcommand !== 'rotate') throw new UsageError('the keys command has one subcommand: keys rotate [--activate-in SECONDS]');
  const { values } = parseArgs({ args: rest, options: { 'activate-in': { type: 'string' } }, strict: true });
  const raw = values['activate-in'];
  if (raw !== undefined && !/^\d{1,7}$/.test(raw)) throw new UsageError('--activate-in takes a whole number of seconds');
  const activateInSeconds = raw === undefined ? config.keyPublishLeadSeconds : Number(raw);
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

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error instanceof Error && error.name === 'TypeError' && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
    process.stderr.write(`ledger-recon: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof StoreInUseError || error instanceof AppError) {
    process.stderr.write(`ledger-recon: ${error.message}\n`);
    process.exit(1);
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : JSON.stringify(error);
  process.stderr.write(`ledger-recon: ${text}\n`);
  process.exit(1);
});
