import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { seedDemoIntoEmptyStore, type DemoCredentials } from './domain/demo-seed.ts';
import { GracefulShutdown } from './http/graceful-shutdown.ts';
import { openRuntime } from './runtime.ts';

/** How long running requests get to finish after SIGTERM before the process exits anyway. */
const DRAIN_TIMEOUT_MILLISECONDS = 30_000;

export interface RunningServer {
  app: FastifyInstance;
  demo: DemoCredentials | null;
  stop(): Promise<void>;
}

/** A start-up failure that one line explains (a port in use); the command line prints it without a stack. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Where the start-up says what it is doing; the first start of the embedded store takes a while. */
export type ProgressReporter = (message: string) => void;

/**
 * Checks that the port can be listened on before anything is created: a first start that fails
 * on a taken port after creating the store and the demo would have printed its one-time
 * credentials to nobody.
 */
async function checkPortAvailable(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new StartupError(
            `port ${port} on ${host} is already in use by another program; stop that program, or choose another port with PORT (for example PORT=${port + 1} npm start)`,
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(new StartupError(`port ${port} on ${host} needs privileges this process does not have; choose a port above 1023 with PORT`));
      } else if (error.code === 'EADDRNOTAVAIL') {
        reject(new StartupError(`HOST ${host} is not an address of this machine; use 127.0.0.1, 0.0.0.0 or an address the machine has`));
      } else {
        reject(error);
      }
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Whether the embedded store in DATA_DIR has yet to be created (its first start initializes a database). */
function embeddedStoreIsNew(config: Config): boolean {
  const databaseDirectory = path.join(config.dataDirectory, 'pgdata');
  return !existsSync(databaseDirectory) || readdirSync(databaseDirectory).length === 0;
}

/** Opens the store, seeds the demo on a first start, and listens. */
export async function startServer(config: Config, progress: ProgressReporter = () => {}): Promise<RunningServer> {
  await checkPortAvailable(config.host, config.port);
  if (config.databaseUrl) progress('connecting to PostgreSQL (DATABASE_URL) and applying migrations');
  else if (embeddedStoreIsNew(config)) {
    progress(`creating the embedded database in ${path.resolve(config.dataDirectory)} (first start only; this takes a few seconds)`);
  } else progress(`opening the embedded database in ${path.resolve(config.dataDirectory)}`);
  const runtime = await openRuntime(config);
  try {
    if (runtime.appliedMigrations.length > 0) progress(`applied ${runtime.appliedMigrations.length} migration(s)`);
    let demo: DemoCredentials | null = null;
    if (config.seedDemo) {
      demo = await seedDemoIntoEmptyStore(runtime.services);
      if (demo) progress('created the demo organization with sample bank and ledger data');
    }
    const shutdown = new GracefulShutdown();
    const app = await buildApp({ services: runtime.services, logger: { level: config.logLevel }, shutdown });
    await app.listen({ port: config.port, host: config.host });
    app.log.info(
      config.smtpUrl === null
        ? 'SMTP_URL is not set: the exceptions queue sends no e-mail digests (its overdue events are still emitted)'
        : 'the exceptions queue e-mails its daily digests through SMTP_URL',
    );
    await runtime.services.jobs.start({ soleProcess: config.databaseUrl === null });
    await runtime.services.webhookJobs.start();
    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        await shutdown.drain(app);
        // Jobs still running are interrupted and queued again; their work rolls back.
        await Promise.all([runtime.services.jobs.stop(), runtime.services.webhookJobs.stop()]);
        await runtime.close();
      })());
    return { app, demo, stop };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** Serves until SIGTERM or SIGINT, then answers every request that reached it, and exits 0. */
export async function serve(config: Config): Promise<void> {
  const server = await startServer(config, (message) => process.stdout.write(`ledger-recon: ${message}…\n`));
  const shutdown = (signal: string) => {
    server.app.log.info({ signal }, 'stopping: running requests finish, new ones are answered 503');
    const forced = setTimeout(() => {
      server.app.log.error('running requests did not finish in time; exiting');
      process.exit(1);
    }, DRAIN_TIMEOUT_MILLISECONDS);
    forced.unref();
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: { message: error instanceof Error ? error.message : String(error) } }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  // The banner comes last: whoever waits for it (a person, a script, a test) may stop the server at once.
  printBanner(config, server.demo);
}

/** The lines a person needs to use a demo: the login, the API credentials and a ready curl pair. */
export function demoBannerLines(config: Config, demo: DemoCredentials): string[] {
  const tokenCommand =
    `curl -s -X POST ${config.publicUrl}/oauth/token -H 'content-type: application/x-www-form-urlencoded' ` +
    `-d grant_type=client_credentials -d client_id=${demo.clientId} -d client_secret=${demo.clientSecret} -d audience=${config.audience}`;
  return [
    `  organization id: ${demo.orgId}`,
    `  web app:         ${config.publicUrl}/ (sign in as the user below; the Developer page makes API clients)`,
    `  user (web app):  ${demo.email} / ${demo.password}`,
    `  API client id:   ${demo.clientId}`,
    `  client secret:   ${demo.clientSecret}`,
    `  audience:        ${config.audience}`,
    '',
    'Try it:',
    `  TOKEN=$(${tokenCommand} | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
    `  curl -s -X POST ${config.publicUrl}/v1/api/${demo.orgId}/transactions -H "authorization: Bearer $TOKEN" ` +
      `-H 'content-type: application/json' -d '{"datasetId": "${demo.bankDatasetId}", "limit": 5}'`,
  ];
}

function printBanner(config: Config, demo: DemoCredentials | null): void {
  const lines = [
    '',
    `ledger-recon is listening on ${config.publicUrl}`,
    `  store:    ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDirectory}`}`,
    `  API docs: ${config.publicUrl}/docs`,
  ];
  if (demo) {
    lines.push(
      '',
      'A demo organization was created. Its credentials are shown once; if you lose them, stop the server',
      'and run "npx ledger-recon demo" for new ones.',
      ...demoBannerLines(config, demo),
    );
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}
