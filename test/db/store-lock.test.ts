import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { lockEmbeddedStore, StoreInUseError } from '../../src/db/store-lock.ts';
import { waitFor } from '../../support/wait.ts';

const STORE_LOCK_MODULE = path.resolve('src/db/store-lock.ts');

function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
  } catch {
    return null;
  }
}

function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

describe('embedded store lock', { skip: existsSync('/proc/self/stat') ? false : 'needs /proc (Linux)' }, () => {
  const directories: string[] = [];
  const directory = () => {
    const created = mkdtempSync(path.join(tmpdir(), 'ledger-recon-lock-'));
    directories.push(created);
    return created;
  };
  after(() => {
    for (const created of directories) rmSync(created, { recursive: true, force: true });
  });

  it('refuses a second owner while the first runs, and is free again after release', () => {
    const store = directory();
    const release = lockEmbeddedStore(store);
    // Another live process with the recorded start time holds the lock.
    const lockPath = path.join(store, 'ledger-recon.pid');
    const recorded = JSON.parse(readFileSync(lockPath, 'utf8'));
    assert.equal(recorded.pid, process.pid);
    writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, startTicks: startTicks(process.ppid) }));
    assert.throws(() => lockEmbeddedStore(store), StoreInUseError);
    release();
    lockEmbeddedStore(store)();
  });

  it('takes over the lock of a killed server that its parent has not reaped (a zombie)', async () => {
    const store = directory();
    const lockPath = path.join(store, 'ledger-recon.pid');
    // The shell starts the lock holder in the background and then becomes `sleep`, which never
    // waits for children: once killed, the holder stays a zombie.
    const script = `import('${STORE_LOCK_MODULE}').then((lock) => { lock.lockEmbeddedStore(${JSON.stringify(store)}); setInterval(() => {}, 1000); })`;
    const parent = spawn('sh', ['-c', `"${process.execPath}" --import tsx -e "$HOLDER" & exec sleep 120`], {
      env: { ...process.env, HOLDER: script },
      stdio: 'ignore',
    });
    try {
      await waitFor(() => existsSync(lockPath) && readFileSync(lockPath, 'utf8').includes('startTicks'), 'the holder to lock the store');
      const holder = JSON.parse(readFileSync(lockPath, 'utf8')).pid as number;
      assert.throws(() => lockEmbeddedStore(store), StoreInUseError);
      process.kill(holder, 'SIGKILL');
      await waitFor(() => processState(holder) === 'Z', 'the killed holder to become a zombie');
      const release = lockEmbeddedStore(store);
      assert.equal(JSON.parse(readFileSync(lockPath, 'utf8')).pid, process.pid);
      release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('takes over a lock whose pid now belongs to an unrelated process', () => {
    const store = directory();
    const lockPath = path.join(store, 'ledger-recon.pid');
    // The parent process is alive, but it started at another time than the recorded owner.
    writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, startTicks: startTicks(process.ppid) + 12345 }));
    const release = lockEmbeddedStore(store);
    assert.equal(JSON.parse(readFileSync(lockPath, 'utf8')).pid, process.pid);
    release();
    // A lock file cut short by a crash holds nobody either.
    writeFileSync(lockPath, '{"pid": 12');
    lockEmbeddedStore(store)();
  });
});
