import { createHash } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import SftpClient from 'ssh2-sftp-client';
import { AppError, connectionErrors } from '../../errors.ts';

/**
 * Where a pickup reads files: an SFTP server (through ssh2-sftp-client, on the ssh2 library) or
 * a folder of the server's own disk. Both are used the same way: list a folder, copy a file to a
 * local path, move it to the archive, delete it.
 */

export interface ListedFile {
  name: string;
  size: number;
  /** Modification time as the server gives it (SFTP: whole seconds, in milliseconds). */
  mtime: number;
}

export interface FileSource {
  list(folder: string): Promise<ListedFile[]>;
  download(remotePath: string, localPath: string): Promise<void>;
  /** Moves a file, never over another: a name taken in the target gets a suffix. Answers where it went. */
  move(remotePath: string, targetFolder: string): Promise<string>;
  remove(remotePath: string): Promise<void>;
  close(): Promise<void>;
}

/** An SFTP server's host key as OpenSSH prints it: SHA256:<base64 without padding>. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

export interface SftpSettings {
  host: string;
  port: number;
  username: string;
  privateKey: string | null;
  password: string | null;
  /** The pinned fingerprint; null accepts none (a first test only shows the fingerprint). */
  hostKeyFingerprint: string | null;
  timeoutSeconds: number;
}

/**
 * Connects to an SFTP server. The host key must be the pinned one: another key stops the
 * connection before any credential is sent (hostKeyChanged); with none pinned, the connection
 * stops there too and the fingerprint is answered (hostKeyNotConfirmed, with `seen`).
 */
export async function connectSftp(settings: SftpSettings): Promise<FileSource> {
  // The library's own listeners of a connection's end would write to the console: what a run
  // needs to know of it comes from SftpSource (below), and reaches the run's record.
  const client = new SftpClient('ledger-recon', { error: () => {}, end: () => {}, close: () => {} });
  let seen = null as string | null;
  try {
    await client.connect({
      host: settings.host,
      port: settings.port,
      username: settings.username,
      ...(settings.privateKey !== null ? { privateKey: settings.privateKey } : {}),
      ...(settings.password !== null ? { password: settings.password } : {}),
      readyTimeout: settings.timeoutSeconds * 1000,
      // Never the agent or keyboard-interactive of the machine the service runs on.
      tryKeyboard: false,
      retries: 0,
      hostVerifier: (key: Buffer) => {
        seen = hostKeyFingerprint(key);
        return settings.hostKeyFingerprint !== null && seen === settings.hostKeyFingerprint;
      },
    } as SftpClient.ConnectOptions);
  } catch (error) {
    await client.end().catch(() => {});
    if (seen !== null && seen !== settings.hostKeyFingerprint) {
      if (settings.hostKeyFingerprint === null) throw new HostKeyToConfirm(seen);
      throw new HostKeyMismatch(settings.hostKeyFingerprint, seen);
    }
    throw describeSftpError(error);
  }
  return new SftpSource(client);
}

/** The first connection to a server whose key is not pinned yet: what its key is. */
export class HostKeyToConfirm extends Error {
  override name = 'HostKeyToConfirm';
  constructor(readonly fingerprint: string) {
    super(`the server's host key is ${fingerprint}`);
  }
}

/** A server whose host key is not the confirmed one: nothing was sent to it. */
export class HostKeyMismatch extends Error {
  override name = 'HostKeyMismatch';
  constructor(
    readonly expected: string,
    readonly found: string,
  ) {
    super(`the server's host key is ${found}, not ${expected}`);
  }
}

/** An error of the SFTP library as the catalogue words it. */
export function describeSftpError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const { message, code, level } = error as { message?: string; code?: string | number; level?: string };
  const text = String(message ?? error);
  if (level === 'client-authentication' || /authentication methods failed/i.test(text)) return connectionErrors.loginRefused();
  if (
    level === 'client-socket' ||
    level === 'client-timeout' ||
    ['ECONNREFUSED', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNRESET', 'EAI_AGAIN', 'ERR_GENERIC_CLIENT'].includes(String(code)) ||
    /timed out|ECONNREFUSED|ENOTFOUND|ECONNRESET|connection lost|not connected|No response from server/i.test(text)
  ) {
    return connectionErrors.unreachable(networkProblemInWords(String(code), text));
  }
  return connectionErrors.remoteProblem(shortProblem(text));
}

/** What the network said, in words, for the error codes people meet; the library's text otherwise. */
function networkProblemInWords(code: string, text: string): string {
  const host = /(?:ENOTFOUND|EAI_AGAIN)\s+(\S+)/.exec(text)?.[1];
  if (code === 'ENOTFOUND' || /ENOTFOUND/.test(text)) return `no server is known by the name ${host ?? 'given'} (check its spelling)`;
  if (code === 'EAI_AGAIN' || /EAI_AGAIN/.test(text)) return `the name ${host ?? 'of the server'} could not be looked up just now`;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(text)) return 'nothing answered on that port (the server refused the connection)';
  if (code === 'ETIMEDOUT' || /timed out/i.test(text)) return 'the server did not answer in time';
  if (code === 'EHOSTUNREACH') return 'there is no route to that address from the service';
  return shortProblem(text);
}

/** The library's message without its prefix of method names ("connect: getConnection: ..."). */
function shortProblem(text: string): string {
  const parts = text.split(/:\s+/);
  const meaningful = parts.filter((part) => !/^[a-zA-Z]+$/.test(part));
  return (meaningful.join(': ') || text).slice(0, 300);
}

class SftpSource implements FileSource {
  /**
   * Rejected once the connection ends (the server went away, the network cut it): an operation
   * under way then fails with that, rather than waiting forever for an answer that cannot come
   * (the library leaves a transfer's promise pending when the connection drops under it).
   */
  readonly #lost: Promise<never>;
  #closing = false;

  constructor(private readonly client: SftpClient) {
    this.#lost = new Promise<never>((_, reject) => {
      const gone = () => {
        if (!this.#closing) reject(new ConnectionLost());
      };
      client.on('close', gone);
      client.on('end', gone);
    });
    this.#lost.catch(() => {});
  }

  /** Runs one operation of the library, which fails with what it was doing when the connection ends meanwhile. */
  async #during<T>(doing: string, operation: () => Promise<T>): Promise<T> {
    const work = operation();
    work.catch(() => {});
    try {
      return await Promise.race([work, this.#lost]);
    } catch (error) {
      if (error instanceof ConnectionLost) throw connectionErrors.unreachable(`the connection was lost while ${doing}`);
      throw describeSftpError(error);
    }
  }

  async list(folder: string): Promise<ListedFile[]> {
    const entries = await this.#during(`listing ${folder}`, () => this.client.list(folder));
    return entries.filter((entry) => entry.type === '-').map((entry) => ({ name: entry.name, size: entry.size, mtime: entry.modifyTime }));
  }

  async download(remotePath: string, localPath: string): Promise<void> {
    await this.#during(`downloading ${remotePath}`, () => this.client.fastGet(remotePath, localPath));
  }

  async move(remotePath: string, targetFolder: string): Promise<string> {
    const name = path.posix.basename(remotePath);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const target = path.posix.join(targetFolder, attempt === 0 ? name : suffixed(name, attempt));
      if ((await this.#during(`moving ${remotePath} to ${targetFolder}`, () => this.client.exists(target))) !== false) continue;
      await this.#during(`moving ${remotePath} to ${targetFolder}`, () => this.client.rename(remotePath, target));
      return target;
    }
    throw connectionErrors.remoteProblem(`the archive folder holds 100 files named like ${name}`);
  }

  async remove(remotePath: string): Promise<void> {
    await this.#during(`deleting ${remotePath}`, () => this.client.delete(remotePath));
  }

  async close(): Promise<void> {
    this.#closing = true;
    await this.client.end().catch(() => {});
  }
}

/** The connection of an SftpSource ended while it was in use. */
class ConnectionLost extends Error {
  override name = 'ConnectionLost';
}

/** `name.xml` → `name.1.xml`: the name a moved file takes when the archive has one of its name. */
function suffixed(name: string, attempt: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}.${attempt}${name.slice(dot)}` : `${name}.${attempt}`;
}

/** Whether a real (links resolved) path is the directory `directoryReal` or lies below it. */
export function isInside(directoryReal: string, real: string): boolean {
  return real === directoryReal || real.startsWith(`${directoryReal}${path.sep}`);
}

/**
 * A folder of the server's disk, below the connection's folder (itself below CONNECTOR_FOLDER_ROOT).
 * Paths are those of the pickup ("/", "incoming", "/archive"), always inside the connection's
 * folder: a path that would leave it (a link pointing out) is refused.
 */
export class FolderSource implements FileSource {
  /** `base` is a real path (Connections.resolveFolder resolved its links when the run opened it). */
  constructor(private readonly base: string) {}

  async #inside(relative: string): Promise<string> {
    const resolved = path.resolve(this.base, `.${path.posix.sep}${relative}`);
    const real = await fs.realpath(resolved).catch(() => resolved);
    if (!isInside(this.base, real)) throw connectionErrors.folderProblem(`${relative} leads out of the connection's folder`);
    return real;
  }

  async list(folder: string): Promise<ListedFile[]> {
    const directory = await this.#inside(folder);
    let entries;
    try {
      entries = await fs.readdir(directory, { withFileTypes: true });
    } catch (error) {
      throw folderError(error, `reading the folder ${folder}`);
    }
    const files: ListedFile[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const stat = await fs.stat(path.join(directory, entry.name)).catch(() => null);
      if (stat) files.push({ name: entry.name, size: stat.size, mtime: Math.floor(stat.mtimeMs) });
    }
    return files;
  }

  async download(remotePath: string, localPath: string): Promise<void> {
    await fs.copyFile(await this.#inside(remotePath), localPath).catch((error: unknown) => {
      throw folderError(error, `reading ${remotePath}`);
    });
  }

  async move(remotePath: string, targetFolder: string): Promise<string> {
    const source = await this.#inside(remotePath);
    const folder = await this.#inside(targetFolder);
    const name = path.basename(source);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const target = path.join(folder, attempt === 0 ? name : suffixed(name, attempt));
      const taken = await fs.access(target, constants.F_OK).then(
        () => true,
        () => false,
      );
      if (taken) continue;
      await fs.rename(source, target).catch((error: unknown) => {
        throw folderError(error, `moving ${remotePath} to ${targetFolder}`);
      });
      return path.posix.join(targetFolder, path.basename(target));
    }
    throw connectionErrors.folderProblem(`the archive folder ${targetFolder} holds 100 files named like ${name}`);
  }

  async remove(remotePath: string): Promise<void> {
    await fs.unlink(await this.#inside(remotePath)).catch((error: unknown) => {
      throw folderError(error, `deleting ${remotePath}`);
    });
  }

  async close(): Promise<void> {}
}

/** What a file system error means to the person who set up a folder pickup, and what to check. */
function folderError(error: unknown, doing: string): AppError {
  const code = (error as NodeJS.ErrnoException).code;
  const words =
    code === 'ENOENT'
      ? 'it does not exist (any more): check the path of the pickup, and that the archive folder was created'
      : code === 'EACCES' || code === 'EPERM'
        ? "the service's user may not do it: give it the right to read and write in that folder"
        : code === 'EXDEV'
          ? 'the archive folder is on another disk: choose an archive folder on the same disk'
          : `the system refused it (${code ?? 'unknown error'})`;
  return connectionErrors.folderProblem(`${doing}: ${words}`);
}

/** A file name pattern (`*.xml`, `camt053_??.xml`, `[AB]*.sta`) as a regular expression of whole names. */
export function patternToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index]!;
    if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else if (character === '[') {
      const end = pattern.indexOf(']', index + 1);
      if (end < 0) source += '\\[';
      else {
        const set = pattern.slice(index + 1, end).replace(/\\/g, '\\\\');
        source += `[${set.startsWith('!') ? `^${set.slice(1)}` : set}]`;
        index = end;
      }
    } else source += character.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
