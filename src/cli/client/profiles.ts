import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { CliError, ExitCode } from './exit-codes.ts';

/**
 * Named connections to servers, kept in the user's configuration directory
 * ($XDG_CONFIG_HOME/ledger-recon/profiles.json, else ~/.config/ledger-recon, or %APPDATA% on
 * Windows). The file holds client secrets, so it is written with mode 600 in a directory of mode
 * 700, and replaced whole (written aside, then renamed) so that a crash never leaves half of it.
 */

export interface Profile {
  server: string;
  clientId: string;
  clientSecret: string;
  tokenUrl?: string;
  audience?: string;
  orgId?: string;
}

interface ProfilesFile {
  defaultProfile: string | null;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function configDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  if (environment.XDG_CONFIG_HOME) return path.join(environment.XDG_CONFIG_HOME, 'ledger-recon');
  if (process.platform === 'win32' && environment.APPDATA) return path.join(environment.APPDATA, 'ledger-recon');
  return path.join(homedir(), '.config', 'ledger-recon');
}

export function profilesPath(environment: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDirectory(environment), 'profiles.json');
}

function readFile(): ProfilesFile {
  let text: string;
  try {
    text = readFileSync(profilesPath(), 'utf8');
  } catch {
    return { defaultProfile: null, profiles: {} };
  }
  try {
    const parsed = JSON.parse(text) as ProfilesFile;
    return { defaultProfile: parsed.defaultProfile ?? null, profiles: parsed.profiles ?? {} };
  } catch {
    throw new CliError(ExitCode.configuration, `${profilesPath()} is not valid JSON; fix it or delete it and run "ledger-recon login" again`);
  }
}

function writeFile(file: ProfilesFile): void {
  const directory = configDirectory();
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const target = profilesPath();
  const aside = `${target}.${process.pid}.tmp`;
  writeFileSync(aside, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
  // The mode of a file that existed is not changed by writeFileSync's option; set it.
  chmodSync(aside, 0o600);
  renameSync(aside, target);
}

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME_PATTERN.test(name))
    throw new CliError(ExitCode.usage, `--profile "${name}" is not a profile name: use letters, digits, ".", "_" and "-" (at most 64)`);
  return name;
}

export function saveProfile(name: string, profile: Profile): string {
  const file = readFile();
  file.profiles[checkProfileName(name)] = profile;
  if (file.defaultProfile === null || !(file.defaultProfile in file.profiles)) file.defaultProfile = name;
  writeFile(file);
  return profilesPath();
}

export function removeProfile(name: string): boolean {
  const file = readFile();
  if (!(name in file.profiles)) return false;
  delete file.profiles[name];
  if (file.defaultProfile === name) file.defaultProfile = Object.keys(file.profiles)[0] ?? null;
  writeFile(file);
  return true;
}

export function listProfiles(): { name: string; profile: Profile; isDefault: boolean }[] {
  const file = readFile();
  return Object.entries(file.profiles).map(([name, profile]) => ({ name, profile, isDefault: name === file.defaultProfile }));
}

/**
 * The profile a command uses: --profile, else LEDGER_RECON_PROFILE, else the default one. The
 * environment variables LEDGER_RECON_SERVER, LEDGER_RECON_CLIENT_ID and LEDGER_RECON_CLIENT_SECRET
 * together stand in for a profile (for scripts and CI, where nobody logs in).
 */
export function resolveProfile(requested: string | undefined, environment: NodeJS.ProcessEnv = process.env): Profile {
  const name = requested ?? environment.LEDGER_RECON_PROFILE;
  if (name === undefined && environment.LEDGER_RECON_SERVER && environment.LEDGER_RECON_CLIENT_ID && environment.LEDGER_RECON_CLIENT_SECRET) {
    return {
      server: environment.LEDGER_RECON_SERVER,
      clientId: environment.LEDGER_RECON_CLIENT_ID,
      clientSecret: environment.LEDGER_RECON_CLIENT_SECRET,
      tokenUrl: environment.LEDGER_RECON_TOKEN_URL || undefined,
      audience: environment.LEDGER_RECON_AUDIENCE || undefined,
      orgId: environment.LEDGER_RECON_ORG_ID || undefined,
    };
  }
  const file = readFile();
  const chosen = name ?? file.defaultProfile;
  if (chosen === null || chosen === undefined) {
    throw new CliError(
      ExitCode.configuration,
      'not logged in: run "ledger-recon login --server URL --client-id ID" first (or set LEDGER_RECON_SERVER, LEDGER_RECON_CLIENT_ID and LEDGER_RECON_CLIENT_SECRET)',
    );
  }
  const profile = file.profiles[chosen];
  if (profile === undefined) {
    const known = Object.keys(file.profiles);
    throw new CliError(
      ExitCode.configuration,
      `there is no profile "${chosen}"${known.length > 0 ? ` (profiles: ${known.join(', ')})` : ''}; create it with "ledger-recon login --profile ${chosen} --server URL --client-id ID"`,
    );
  }
  return profile;
}
