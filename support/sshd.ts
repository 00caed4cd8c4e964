import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './net.ts';

const run = promisify(execFile);

/** Where Debian's openssh-server puts the daemon; .ci/run installs it when it is missing. */
export const SSHD = '/usr/sbin/sshd';

/**
 * The system account a password login is tried with: sshd checks a password against the system's
 * accounts, so one must exist. .ci/run makes it (no home, no shell, password locked); a test run
 * as root gives it a fresh random password for the time of a suite and locks it again after.
 */
export const PASSWORD_ACCOUNT = 'ledger-recon-sftp';

export interface TestSshd {
  host: string;
  port: number;
  /** The user the server lets in: the user the tests run as (a server not run as root can let no one else in). */
  username: string;
  /** A directory the SFTP user reads and writes: pickups' folders go under it. */
  root: string;
  /** The server's host key fingerprint as OpenSSH prints it (SHA256:...). */
  fingerprint: string;
  /** Lets in whoever holds the private key of this public key (an authorized_keys line). */
  authorize(publicKey: string): Promise<void>;
  /**
   * A user name and password the server lets in (PASSWORD_ACCOUNT with a fresh password), or why
   * there is none on this machine: the account is missing, or the tests do not run as root.
   */
  passwordLogin(): Promise<{ username: string; password: string } | { missing: string }>;
  /** Gives the server another host key, as a server impersonating this one would have; restarts it on the same port. */
  changeHostKey(): Promise<void>;
  /** The server going away: SIGKILL to the daemon and to every session it forked, so open connections drop. */
  kill(): Promise<void>;
  /** Starts the server again after kill(), on the same port with the same host key. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real OpenSSH server (sshd with its internal-sftp) on a free loopback port, with its own host
 * key, configuration and authorized keys in a temporary directory. It lets in the user the tests
 * run as, by key, and PASSWORD_ACCOUNT by password (see passwordLogin).
 */
export async function startSshd(): Promise<TestSshd> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: install Debian's openssh-server (.ci/run does)`);
  const directory = await mkdtemp(path.join(tmpdir(), 'sshd-'));
  await chmod(directory, 0o755);
  const root = path.join(directory, 'files');
  await mkdir(root);
  const username = userInfo().username;
  let port = await freePort();
  const hostKey = path.join(directory, 'host_key');
  const authorizedKeys = path.join(directory, 'authorized_keys');
  await writeFile(authorizedKeys, '', { mode: 0o600 });
  const config = path.join(directory, 'sshd_config');
  const writeConfig = () =>
    writeFile(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${hostKey}`,
        `PidFile ${path.join(directory, 'sshd.pid')}`,
        `AuthorizedKeysFile ${authorizedKeys}`,
        'StrictModes no',
        'UsePAM no',
        'PasswordAuthentication yes',
        'KbdInteractiveAuthentication no',
        'PermitRootLogin yes',
        `AllowUsers ${username} ${PASSWORD_ACCOUNT}`,
        'Subsystem sftp internal-sftp',
        'ForceCommand internal-sftp',
        'LogLevel ERROR',
        '',
      ].join('\n'),
    );
  await writeConfig();
  // sshd run by root separates privileges into this directory, which Debian makes at boot.
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  let child: ChildProcess | null = null;
  let fingerprint = '';
  const newHostKey = async () => {
    await rm(hostKey, { force: true });
    await rm(`${hostKey}.pub`, { force: true });
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
    const { stdout } = await run('ssh-keygen', ['-l', '-f', `${hostKey}.pub`]);
    fingerprint = stdout.split(' ')[1]!;
  };
  /**
   * Starts sshd and waits until it listens. The free port was free when chosen, but another suite
   * running beside this one may take it before sshd binds it: then something answers on the port
   * while sshd itself has exited ("Address already in use"), so sshd must still be running a moment
   * after the port answers. On the first start another port is tried; a restart keeps its port,
   * which the connections under test name.
   */
  const start = async (otherPortAllowed: boolean) => {
    for (let attempt = 1; ; attempt += 1) {
      const started = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
      child = started;
      let errors = '';
      started.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const deadline = Date.now() + 10_000;
      while (started.exitCode === null && !(await listening(port))) {
        if (Date.now() > deadline) throw new Error(`sshd did not start: ${errors}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (started.exitCode === null) return;
      if (!otherPortAllowed || attempt >= 5 || !/already in use|cannot bind/i.test(errors)) throw new Error(`sshd did not start: ${errors}`);
      port = await freePort();
      await writeConfig();
    }
  };
  const stopServer = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await newHostKey();
  await start(true);
  let passwordGiven = false;
  return {
    host: '127.0.0.1',
    port,
    username,
    root,
    get fingerprint() {
      return fingerprint;
    },
    passwordLogin: async () => {
      if (process.getuid?.() !== 0)
        return { missing: `a password login needs a system account's password set, which only root can do; the tests run as ${username}` };
      try {
        await run('id', [PASSWORD_ACCOUNT]);
      } catch {
        return {
          missing: `the system account ${PASSWORD_ACCOUNT} is missing (.ci/run makes it: useradd --system --no-create-home --shell /usr/sbin/nologin ${PASSWORD_ACCOUNT})`,
        };
      }
      const password = randomBytes(18).toString('base64url');
      await new Promise<void>((resolve, reject) => {
        const setting = spawn('chpasswd', [], { stdio: ['pipe', 'ignore', 'pipe'] });
        let errors = '';
        setting.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
        setting.on('error', reject);
        setting.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`chpasswd failed: ${errors}`))));
        setting.stdin!.end(`${PASSWORD_ACCOUNT}:${password}\n`);
      });
      passwordGiven = true;
      return { username: PASSWORD_ACCOUNT, password };
    },
    authorize: async (publicKey) => {
      const existing = await readFile(authorizedKeys, 'utf8');
      await writeFile(authorizedKeys, `${existing}${publicKey.trim()}\n`);
    },
    changeHostKey: async () => {
      await stopServer();
      await newHostKey();
      await start(false);
    },
    kill: async () => {
      const running = child;
      child = null;
      if (!running?.pid || running.exitCode !== null) return;
      // Each connection is served by a process the daemon forked (in a session of its own):
      // found by their parent ids before the daemon dies, and killed by their ids.
      const family = await descendants(running.pid);
      const exited = new Promise((resolve) => running.once('exit', resolve));
      for (const pid of [running.pid, ...family]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
    },
    restart: async () => {
      if (child) return;
      await start(false);
    },
    stop: async () => {
      await stopServer();
      await rm(directory, { recursive: true, force: true });
      // The account's password lives only as long as the suite: locked again.
      if (passwordGiven) await run('passwd', ['-l', PASSWORD_ACCOUNT]).catch(() => undefined);
    },
  };
}

/** The processes below `pid` (children, their children ...), from /proc. */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(path.join('/proc', entry, 'stat'), 'utf8').catch(() => null);
    // pid (command) state ppid ...: the command may hold spaces and parentheses, so read after the last ')'.
    const parent = stat === null ? NaN : Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(parent)) continue;
    parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
