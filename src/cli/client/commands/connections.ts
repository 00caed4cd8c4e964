import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Connection, NewConnection, NewPickup, Pickup, PickupFile } from '@ledger-recon/sdk';
import { positiveInteger, uuid } from '../arguments.ts';
import { connect } from '../connect.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { chooseFormat, ListWriter, printRecord, writeAll } from '../output.ts';

/** connections: SFTP servers and folders whose files are picked up on a schedule (docs/CONNECTIONS.md). */
export function registerConnectionCommands(program: Command): void {
  const connections = program.command('connections').description('SFTP servers and folders whose files are picked up on a schedule');
  connections
    .command('list', { isDefault: true })
    .description('list connections with how their last runs went')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (options: { profile?: string; format?: string }) => {
      const writer = new ListWriter<Connection>(chooseFormat(options.format), [
        { header: 'id', value: (connection) => connection.id, maxWidth: 36 },
        { header: 'name', value: (connection) => connection.name, maxWidth: 30 },
        { header: 'kind', value: (connection) => connection.kind },
        {
          header: 'where',
          value: (connection) => (connection.kind === 'sftp' ? `${connection.username}@${connection.host}:${connection.port}` : (connection.folderPath ?? '')),
          maxWidth: 40,
        },
        { header: 'host key', value: (connection) => connection.hostKeyFingerprint ?? (connection.kind === 'sftp' ? 'not confirmed' : '') },
        { header: 'last success', value: (connection) => connection.lastSuccessAt ?? '' },
        { header: 'failures', value: (connection) => String(connection.consecutiveFailures) },
        { header: 'last error', value: (connection) => connection.lastError ?? '', maxWidth: 60 },
      ]);
      await writeAll(writer, await connect(options.profile).connections.list());
    });
  connections
    .command('add-sftp <name>')
    .description('add an SFTP server; with --generate-key the public key to hand to the bank is printed')
    .requiredOption('--host <host>', "the server's host name")
    .option('--port <port>', 'the port (22 by default)', positiveInteger)
    .requiredOption('--user <user>', 'the user name the bank gave')
    .option('--generate-key', 'have the service make an Ed25519 key pair')
    .option('--private-key-file <path>', 'a private key file (OpenSSH or PEM, without a passphrase)')
    .option('--password-env <variable>', 'the environment variable holding the password (never on the command line)')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(
      async (
        name: string,
        options: {
          host: string;
          port?: number;
          user: string;
          generateKey?: boolean;
          privateKeyFile?: string;
          passwordEnv?: string;
          profile?: string;
          format?: string;
        },
      ) => {
        const chosen = [options.generateKey, options.privateKeyFile, options.passwordEnv].filter((value) => value !== undefined).length;
        if (chosen !== 1) throw new CliError(ExitCode.usage, 'choose one of --generate-key, --private-key-file or --password-env');
        const body: NewConnection = {
          name,
          kind: 'sftp',
          host: options.host,
          username: options.user,
          ...(options.port ? { port: options.port } : {}),
          authMethod: 'generated_key',
        };
        if (options.privateKeyFile) Object.assign(body, { authMethod: 'uploaded_key', privateKey: readFileSync(options.privateKeyFile, 'utf8') });
        if (options.passwordEnv) {
          const password = process.env[options.passwordEnv];
          if (!password) throw new CliError(ExitCode.usage, `the environment variable ${options.passwordEnv} is empty`);
          Object.assign(body, { authMethod: 'password', password });
        }
        const created = await connect(options.profile).connections.create(body);
        printRecord(chooseFormat(options.format), created as Record<string, unknown>);
      },
    );
  connections
    .command('add-folder <name> <folder>')
    .description('add a folder under the directory the operator allows (CONNECTOR_FOLDER_ROOT)')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (name: string, folder: string, options: { profile?: string; format?: string }) => {
      const created = await connect(options.profile).connections.create({ name, kind: 'folder', folderPath: folder });
      printRecord(chooseFormat(options.format), created as Record<string, unknown>);
    });
  connections
    .command('test <connectionId>')
    .description("connect: show the server's host key fingerprint, log in, read the pickup folders")
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (connectionId: string, options: { profile?: string; format?: string }) => {
      const test = await connect(options.profile).connections.test(uuid(connectionId));
      printRecord(chooseFormat(options.format), test as Record<string, unknown>);
      if (!test.ok) process.exitCode = ExitCode.failure;
    });
  connections
    .command('confirm-host-key <connectionId> <fingerprint>')
    .description('confirm the host key fingerprint the test showed, once checked with the bank')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table (text) or json')
    .action(async (connectionId: string, fingerprint: string, options: { profile?: string; format?: string }) => {
      const updated = await connect(options.profile).connections.update(uuid(connectionId), { hostKeyFingerprint: fingerprint });
      printRecord(chooseFormat(options.format), updated as Record<string, unknown>);
    });
  connections
    .command('delete <connectionId>')
    .description('delete a connection with its pickups (the imports they made stay)')
    .option('--profile <name>', 'the profile to use')
    .action(async (connectionId: string, options: { profile?: string }) => {
      await connect(options.profile).connections.delete(uuid(connectionId));
    });
  connections
    .command('pickups <connectionId>')
    .description("list a connection's pickups")
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (connectionId: string, options: { profile?: string; format?: string }) => {
      const writer = new ListWriter<Pickup>(chooseFormat(options.format), [
        { header: 'id', value: (pickup) => pickup.id, maxWidth: 36 },
        { header: 'files', value: (pickup) => `${pickup.path.replace(/\/$/, '')}/${pickup.pattern}`, maxWidth: 50 },
        {
          header: 'schedule',
          value: (pickup) => (pickup.timesOfDay ? `at ${pickup.timesOfDay.join(', ')} ${pickup.timeZone}` : `every ${pickup.intervalMinutes} min`),
          maxWidth: 50,
        },
        { header: 'target', value: (pickup) => (pickup.routeByAccount ? 'by account' : (pickup.datasetId ?? '')), maxWidth: 36 },
        { header: 'after', value: (pickup) => (pickup.afterImport === 'move' ? `move to ${pickup.archivePath}` : pickup.afterImport), maxWidth: 40 },
        { header: 'next run', value: (pickup) => (pickup.enabled ? pickup.nextRunAt : 'off') },
      ]);
      await writeAll(writer, await connect(options.profile).connections.pickups(uuid(connectionId)));
    });
  connections
    .command('add-pickup <connectionId> <path> <pattern>')
    .description('pick up the files of a folder that fit a pattern (e.g. /out "*.xml") every N minutes, or at times of day in a time zone')
    .option('--every <minutes>', 'how often, in minutes', positiveInteger)
    .option('--times <times>', 'times of day instead, HH:MM separated by commas (e.g. 06:00,14:30); with --time-zone')
    .option('--time-zone <zone>', 'the time zone of --times, e.g. Europe/Berlin or UTC')
    .option('--dataset <id>', 'import every file into this dataset', uuid)
    .option('--route-by-account', 'import each statement into the dataset of its account (unknown accounts are held)')
    .option('--format <format>', "the files' format (detected by default)")
    .option('--mapping-name <name>', 'a CSV mapping saved on the dataset')
    .option('--ready-marker <ending>', 'take a file only once its marker is beside it: the name followed by this (.done: file.xml.done)')
    .option('--archive <path>', 'move imported files to this folder')
    .option('--delete-after-import', 'delete imported files')
    .option('--profile <name>', 'the profile to use')
    .option('--output <format>', 'table (text) or json')
    .action(
      async (
        connectionId: string,
        path: string,
        pattern: string,
        options: {
          every?: number;
          times?: string;
          timeZone?: string;
          dataset?: string;
          routeByAccount?: boolean;
          format?: string;
          mappingName?: string;
          readyMarker?: string;
          archive?: string;
          deleteAfterImport?: boolean;
          profile?: string;
          output?: string;
        },
      ) => {
        if ((options.dataset === undefined) === (options.routeByAccount === undefined))
          throw new CliError(ExitCode.usage, 'choose one of --dataset or --route-by-account');
        if (options.archive && options.deleteAfterImport) throw new CliError(ExitCode.usage, 'choose one of --archive or --delete-after-import');
        if ((options.every === undefined) === (options.times === undefined))
          throw new CliError(ExitCode.usage, 'choose one of --every <minutes> or --times <HH:MM,...> with --time-zone <zone>');
        if ((options.times === undefined) !== (options.timeZone === undefined))
          throw new CliError(ExitCode.usage, '--times and --time-zone go together: the times are read in that time zone (e.g. --time-zone Europe/Berlin)');
        const body: NewPickup = {
          path,
          pattern,
          ...(options.every !== undefined ? { intervalMinutes: options.every } : {}),
          ...(options.times !== undefined ? { timesOfDay: options.times.split(',').map((time) => time.trim()), timeZone: options.timeZone } : {}),
          ...(options.dataset ? { datasetId: options.dataset } : { routeByAccount: true }),
          ...(options.format ? { format: options.format as never } : {}),
          ...(options.mappingName ? { mappingName: options.mappingName } : {}),
          ...(options.readyMarker ? { readyMarker: options.readyMarker } : {}),
          afterImport: options.archive ? 'move' : options.deleteAfterImport ? 'delete' : 'leave',
          ...(options.archive ? { archivePath: options.archive } : {}),
        };
        const created = await connect(options.profile).connections.createPickup(uuid(connectionId), body);
        printRecord(chooseFormat(options.output), created as Record<string, unknown>);
      },
    );
  connections
    .command('run <connectionId> <pickupId>')
    .description('run a pickup now and print what happened to each file')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (connectionId: string, pickupId: string, options: { profile?: string; format?: string }) => {
      const recon = connect(options.profile);
      const queued = await recon.connections.runNow(uuid(connectionId), uuid(pickupId));
      let run = queued;
      for (let waited = 0; ['queued', 'running'].includes(run.status); waited += 1) {
        if (waited > 600) throw new CliError(ExitCode.failure, `the run ${queued.id} has not ended after 5 minutes; see it with "connections runs"`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        run = await recon.connections.run(connectionId, pickupId, queued.id);
      }
      if (run.error) process.stderr.write(`the run failed: ${run.error}\n`);
      await writeAll(fileWriter(options.format), run.files);
      if (run.status === 'failed') process.exitCode = ExitCode.failure;
    });
  connections
    .command('runs <connectionId> <pickupId>')
    .description('the latest runs of a pickup, each file with what happened to it')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (connectionId: string, pickupId: string, options: { profile?: string; format?: string }) => {
      const runs = await connect(options.profile).connections.runs(uuid(connectionId), uuid(pickupId));
      const rows: RunRow[] = runs.flatMap((run): RunRow[] =>
        run.files.length === 0
          ? [{ run: run.createdAt, status: run.status, file: null, note: run.error ?? '' }]
          : run.files.map((file) => ({ run: run.createdAt, status: run.status, file, note: file.message ?? '' })),
      );
      const writer = new ListWriter<RunRow>(chooseFormat(options.format), [
        { header: 'run', value: (row) => row.run },
        { header: 'status', value: (row) => row.status },
        { header: 'file', value: (row) => row.file?.name ?? '', maxWidth: 40 },
        { header: 'outcome', value: (row) => row.file?.outcome ?? '' },
        { header: 'import', value: (row) => row.file?.importId ?? '', maxWidth: 36 },
        { header: 'note', value: (row) => row.note, maxWidth: 80 },
      ]);
      await writeAll(writer, rows);
    });
}

interface RunRow {
  run: string;
  status: string;
  file: PickupFile | null;
  note: string;
}

function fileWriter(format: string | undefined): ListWriter<PickupFile> {
  return new ListWriter<PickupFile>(chooseFormat(format), [
    { header: 'file', value: (file) => file.name, maxWidth: 40 },
    { header: 'outcome', value: (file) => file.outcome },
    { header: 'import', value: (file) => file.importId ?? '', maxWidth: 36 },
    { header: 'after', value: (file) => file.afterImport ?? '' },
    { header: 'note', value: (file) => file.message ?? '', maxWidth: 80 },
  ]);
}
