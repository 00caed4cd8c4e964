import type { Command } from 'commander';
import { createInterface } from 'node:readline';
import { LedgerRecon } from '@ledger-recon/sdk';
import { CliError, ExitCode } from '../exit-codes.ts';
import { checkProfileName, DEFAULT_PROFILE, listProfiles, removeProfile, saveProfile, type Profile } from '../profiles.ts';
import { chooseFormat, ListWriter } from '../output.ts';

/** Reads the secret without echoing it on a terminal, or from standard input when piped. */
async function readSecret(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  const readline = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const prompt = 'client secret: ';
  // Echo nothing of what is typed after the prompt.
  (readline as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text: string) => {
    if (text.startsWith(prompt)) process.stderr.write(prompt);
  };
  try {
    return (await new Promise<string>((resolve) => readline.question(prompt, resolve))).trim();
  } finally {
    process.stderr.write('\n');
    readline.close();
  }
}

export function registerSessionCommands(program: Command): void {
  program
    .command('login')
    .description('check a client id and secret against a server and keep them as a profile (mode 600, in your config directory)')
    .requiredOption('--server <url>', 'the server, e.g. https://recon.example.com')
    .requiredOption('--client-id <id>', 'an API client id (from the Developer page of the web app, the demo banner or init)')
    .option('--client-secret <secret>', 'its secret; better left out: it is then asked for (or read from standard input, or LEDGER_RECON_CLIENT_SECRET)')
    .option('--profile <name>', 'the profile to write', DEFAULT_PROFILE)
    .option('--token-url <url>', 'the token endpoint, when not <server>/oauth/token')
    .option('--audience <audience>', 'the audience, when not <server>/v1/api')
    .option('--org <id>', "the organization id, when the server's tokens do not name it")
    .action(
      async (options: { server: string; clientId: string; clientSecret?: string; profile: string; tokenUrl?: string; audience?: string; org?: string }) => {
        checkProfileName(options.profile);
        if (!/^https?:\/\/[^\s/]+/i.test(options.server))
          throw new CliError(ExitCode.usage, `--server must be an http(s) URL such as https://recon.example.com; got "${options.server}"`);
        const clientSecret = options.clientSecret ?? process.env.LEDGER_RECON_CLIENT_SECRET ?? (await readSecret());
        if (clientSecret === '')
          throw new CliError(ExitCode.usage, 'no client secret given: type it when asked, pipe it in, or set LEDGER_RECON_CLIENT_SECRET');
        const profile: Profile = {
          server: options.server.replace(/\/+$/, ''),
          clientId: options.clientId,
          clientSecret,
          ...(options.tokenUrl ? { tokenUrl: options.tokenUrl } : {}),
          ...(options.audience ? { audience: options.audience } : {}),
          ...(options.org ? { orgId: options.org } : {}),
        };
        const recon = new LedgerRecon({
          baseUrl: profile.server,
          clientId: profile.clientId,
          clientSecret,
          tokenUrl: profile.tokenUrl,
          audience: profile.audience,
          orgId: profile.orgId,
          retry: { maxAttempts: 2 },
        });
        // A token proves the credentials; the organization comes with it (or from --org).
        await recon.tokens.get();
        const orgId = await recon.orgId();
        const datasets = await recon.datasets.list();
        const path = saveProfile(options.profile, { ...profile, orgId });
        process.stdout.write(
          `logged in to ${profile.server} as client ${profile.clientId} of organization ${orgId} (${datasets.length} dataset${datasets.length === 1 ? '' : 's'})\n` +
            `profile "${options.profile}" saved in ${path}\n`,
        );
      },
    );

  program
    .command('logout')
    .description('forget a profile and its secret')
    .option('--profile <name>', 'the profile to forget', DEFAULT_PROFILE)
    .action((options: { profile: string }) => {
      if (!removeProfile(options.profile)) throw new CliError(ExitCode.notFound, `there is no profile "${options.profile}"`);
      process.stdout.write(`profile "${options.profile}" forgotten\n`);
    });

  program
    .command('profiles')
    .description('list the profiles (never their secrets)')
    .option('--format <format>', 'table, json or csv')
    .action(async (options: { format?: string }) => {
      const writer = new ListWriter<ReturnType<typeof listProfiles>[number]>(
        chooseFormat(options.format),
        [
          { header: 'profile', value: (entry) => `${entry.name}${entry.isDefault ? ' (default)' : ''}` },
          { header: 'server', value: (entry) => entry.profile.server, maxWidth: 60 },
          { header: 'client id', value: (entry) => entry.profile.clientId },
          { header: 'organization', value: (entry) => entry.profile.orgId ?? '' },
        ],
        (entry) => ({
          name: entry.name,
          default: entry.isDefault,
          server: entry.profile.server,
          clientId: entry.profile.clientId,
          orgId: entry.profile.orgId ?? null,
        }),
      );
      await writer.write(listProfiles());
      await writer.end('no profiles: run "ledger-recon login"');
    });
}
