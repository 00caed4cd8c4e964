import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'ledger-recon.pid';

export class StoreInUseError extends Error {
  override name = 'StoreInUseError';
}

/** What the lock file records of its owner: the pid, and when that process started, to tell it from a later process given the same pid. */
interface LockOwner {
  pid: number;
  /** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); null where /proc is absent. */
  startTicks: number | null;
}

/**
 * The state and start time of a process from /proc (Linux), or null when /proc cannot tell
 * (no such process, or another system). The command name in the stat line is parenthesised
 * and may itself hold spaces and parentheses, so fields are counted from its last ')'.
 */
function processStat(pid: number): { state: string; startTicks: number } | null | 'unknown' {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') {
      try {
        readFileSync('/proc/self/stat');
        return null;
      } catch {
        return 'unknown';
      }
    }
    return 'unknown';
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command come state (field 3) and, 19 fields on, starttime (field 22).
  return { state: fields[0] ?? '', startTicks: Number(fields[19]) };
}

/**
 * Whether the process recorded in a lock still holds it. A zombie (killed, not yet reaped by its
 * parent) holds nothing, and a live process whose start time differs from the recorded one is a
 * stranger that was given the same pid after the owner died.
 */
export function lockOwnerIsAlive(owner: LockOwner): boolean {
  const stat = processStat(owner.pid);
  if (stat === null) return false;
  if (stat !== 'unknown') {
    if (stat.state === 'Z' || stat.state === 'X') return false;
    return owner.startTicks === null || owner.startTicks === stat.startTicks;
  }
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockPath: string): LockOwner | null {
  const text = readFileSync(lockPath, 'utf8').trim();
  // Lock files of earlier versions hold the pid alone.
  if (/^\d+$/.test(text)) return { pid: Number(text), startTicks: null };
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(parsed.pid) && parsed.pid! > 0) {
      return { pid: parsed.pid!, startTicks: typeof parsed.startTicks === 'number' ? parsed.startTicks : null };
    }
  } catch {
    // A lock file cut short by a crash while it was written holds nobody.
  }
  return null;
}

function ownStartTicks(): number | null {
  const stat = processStat(process.pid);
  return stat === null || stat === 'unknown' ? null : stat.startTicks;
}

/**
 * The embedded store can be opened by one process at a time. The lock file records the owner's
 * pid and start time; a lock whose owner is gone (exited, killed and left a zombie, or replaced
 * by an unrelated process with the same pid) is taken over. Returns the release function.
 */
export function lockEmbeddedStore(dataDirectory: string): () => void {
  mkdirSync(dataDirectory, { recursive: true });
  const lockPath = path.join(dataDirectory, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, startTicks: ownStartTicks() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const descriptor = openSync(lockPath, 'wx');
      writeSync(descriptor, JSON.stringify(me));
      closeSync(descriptor);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      if (owner !== null && owner.pid !== process.pid && lockOwnerIsAlive(owner)) {
        throw new StoreInUseError(
          `the embedded store in ${path.resolve(dataDirectory)} is in use by a running ledger-recon (pid ${owner.pid}); ` +
            'stop that server first, or point DATABASE_URL at a PostgreSQL server, which several processes can share',
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new StoreInUseError(`could not lock the embedded store in ${path.resolve(dataDirectory)}`);
}
