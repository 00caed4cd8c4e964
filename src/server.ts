import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { seedDemoIntoEmptyStore, type DemoCredentials } from './domain/demo-seed.ts';
import { openRuntime } from './runtime.ts';

/** How long in-flight requests get to finish after SIGTERM before the process exits anyway. */
const DRAIN_TIMEOUT_MILLISECONDS = 10_000;

export interface RunningServer {
  app: FastifyInstance;
  demo: DemoCredentials | null;
  stop(): Promise<void>;
}

/** Opens the store, seeds the demo on a first start, and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const runtime = await openRuntime(config);
  try {
    const demo = config.seedDemo ? await seedDemoIntoEmptyStore(runtime.services) : null;
    const app = await buildApp({ services: runtime.services, logger: { level: config.logLevel } });
    await app.listen({ port: config.port, host: config.host });
    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        await app.close();
        await runtime.close();
      })());
    return { app, demo, stop };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** Serves until SIGTERM or SIGINT, then drains in-flight requests and exits 0. */
export async function serve(config: Config): Promise<void> {
  const server = await startServer(config);
  printBanner(config, server.demo);
  const shutdown = (signal: string) => {
    server.app.log.info({ signal }, 'draining in-flight requests, then stopping');
    const forced = setTimeout(() => {
      server.app.log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, DRAIN_TIMEOUT_MILLISECONDS);
    forced.unref();
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

function printBanner(config: Config, demo: DemoCredentials | null): void {
  const lines = [
    '',
    `ledger-recon is listening on ${config.publicUrl}`,
    `  store:    ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDirectory}`}`,
    `  API docs: ${config.publicUrl}/docs`,
  ];
  if (demo) {
    const tokenCommand =
      `curl -s -X POST ${config.publicUrl}/oauth/token -H 'content-type: application/x-www-form-urlencoded' ` +
      `-d grant_type=client_credentials -d client_id=${demo.clientId} -d client_secret=${demo.clientSecret} -d audience=${config.audience}`;
    lines.push(
      '',
      'A demo organization was created (shown once: keep these; a restart does not print them again):',
      `  organization id: ${demo.orgId}`,
      `  user (web app):  ${demo.email} / ${demo.password}`,
      `  API client id:   ${demo.clientId}`,
      `  client secret:   ${demo.clientSecret}`,
      `  audience:        ${config.audience}`,
      '',
      'Try it:',
      `  TOKEN=$(${tokenCommand} | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
      `  curl -s -X POST ${config.publicUrl}/v1/api/${demo.orgId}/transactions -H "authorization: Bearer $TOKEN" ` +
        `-H 'content-type: application/json' -d '{"datasetId": "${demo.bankDatasetId}", "limit": 5}'`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}
