import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'ledger-recon.pid';

export class StoreInUseError extends Error {
  override name = 'StoreInUseError';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded store can be opened by one process at a time. The lock file holds the owner's
 * pid; a lock left by a process that no longer runs is taken over. Returns the release function.
 */
export function lockEmbeddedStore(dataDirectory: string): () => void {
  mkdirSync(dataDirectory, { recursive: true });
  const lockPath = path.join(dataDirectory, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const descriptor = openSync(lockPath, 'wx');
      writeSync(descriptor, String(process.pid));
      closeSync(descriptor);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new StoreInUseError(
          `the embedded store in ${path.resolve(dataDirectory)} is in use by a running ledger-recon (pid ${owner}); ` +
            'stop that server first, or point DATABASE_URL at a PostgreSQL server, which several processes can share',
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new StoreInUseError(`could not lock the embedded store in ${path.resolve(dataDirectory)}`);
}
