import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The SDK as it is published: compiled by its own build (tsc, without Node's types, so that it
 * relies on nothing but the platform's fetch), loaded by plain Node without the TypeScript
 * loader, with no dependency of its own, and working against the real server.
 */

function run(command: string, args: string[], cwd: string, environment: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  const { NODE_OPTIONS: _loader, ...inherited } = process.env;
  const child = spawn(command, args, { cwd, env: { ...inherited, ...environment } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output })));
}

describe('the SDK package', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let outDirectory: string;

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    outDirectory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-sdk-'));
  });
  after(async () => {
    await server.close();
    rmSync(outDirectory, { recursive: true, force: true });
  });

  it('has no runtime dependency, builds with its own configuration, and runs on plain Node', async () => {
    const manifest = JSON.parse(readFileSync('sdk/package.json', 'utf8'));
    assert.equal(manifest.type, 'module');
    assert.equal(manifest.dependencies, undefined);
    assert.equal(manifest.exports['.'].default, './dist/index.js');

    const tsc = path.resolve('node_modules/typescript/bin/tsc');
    const build = await run(process.execPath, [tsc, '-p', 'sdk/tsconfig.build.json', '--outDir', path.join(outDirectory, 'dist')], process.cwd());
    assert.equal(build.status, 0, build.output);
    writeFileSync(path.join(outDirectory, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      path.join(outDirectory, 'use.js'),
      `import { LedgerRecon, LedgerReconError } from './dist/index.js';
const recon = new LedgerRecon({ baseUrl: process.env.BASE_URL, clientId: process.env.CLIENT_ID, clientSecret: process.env.CLIENT_SECRET });
const source = await recon.sources.create({ name: 'From the built package' });
const sources = await recon.sources.list();
const missing = await recon.transactions.get('00000000-0000-4000-8000-000000000000').catch((error) => error);
console.log(JSON.stringify({ found: sources.some((entry) => entry.id === source.id), typed: missing instanceof LedgerReconError, code: missing.code }));
`,
    );
    const used = await run(process.execPath, ['use.js'], outDirectory, {
      BASE_URL: server.baseUrl,
      CLIENT_ID: organization.clientId,
      CLIENT_SECRET: organization.clientSecret,
    });
    assert.equal(used.status, 0, used.output);
    assert.deepEqual(JSON.parse(used.output.trim().split('\n').pop()!), { found: true, typed: true, code: 404 });
  });
});
