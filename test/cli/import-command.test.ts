import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { demoFromBanner, migratedDataDirectory, run } from '../../support/processes.ts';

/**
 * `ledger-recon import FILE --org ORG --dataset ID` on the embedded store, through the binary as
 * a person runs it with the server stopped: the report at the end, idempotent on a second run,
 * a malformed file refused whole with its line, bad arguments with exit code 2.
 */
describe('ledger-recon import (embedded store)', () => {
  let dataDirectory: string;
  let environment: Record<string, string>;
  let demo: ReturnType<typeof demoFromBanner>;

  before(async () => {
    // A migrated store: what is tested is the import into it, not its creation.
    dataDirectory = await migratedDataDirectory('ledger-recon-import-cli-');
    environment = { DATA_DIR: dataDirectory };
    const created = run(['demo'], environment);
    assert.equal(created.status, 0, created.stderr);
    demo = demoFromBanner(created.stdout);
  });
  after(() => rmSync(dataDirectory, { recursive: true, force: true }));

  const importFile = (file: string, ...extra: string[]) => run(['import', file, '--org', demo.orgId, '--dataset', demo.datasetId, ...extra], environment);

  it('imports a statement, prints the report, and adds nothing the second time', () => {
    const statement = 'test/fixtures/imports/mt940/abn-amro-unstructured.sta';
    // The demo's bank dataset holds the statements of the demo's account, not this file's.
    const refused = importFile(statement);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /statement of account 517852257 .* holds the statements of account DE89 3704 0044 0532 0130 00/);
    const first = importFile(statement, '--allow-other-account');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /completed: mt940 \(utf-8\), 10 entries read, 10 new, 0 already known/);
    assert.match(first.stdout, /statement 19321\/1 account 517852257 EUR: 8 entries \(8 new, 0 already known\) summing to -321\.44/);
    const again = importFile(statement, '--json', '--allow-other-account');
    assert.equal(again.status, 0, again.stderr);
    const report = JSON.parse(again.stdout);
    assert.deepEqual(
      { status: report.status, inserted: report.inserted, duplicates: report.duplicates, createdBy: report.createdBy },
      {
        status: 'completed',
        inserted: 0,
        duplicates: 10,
        createdBy: 'cli:import',
      },
    );
  });

  it('imports a CSV with a mapping file', () => {
    const result = importFile('test/fixtures/imports/csv/ing-nl.csv', '--mapping', 'test/fixtures/imports/csv/ing-nl.csv.mapping.json', '--json');
    assert.equal(result.status, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.format, 'csv');
    // ISO-8859-1 is read as its superset windows-1252, as the WHATWG Encoding Standard defines the label.
    assert.equal(report.encoding, 'windows-1252');
    assert.ok(report.inserted > 0);
  });

  it('refuses a malformed file whole, naming the line, and stores nothing of it', () => {
    const broken = path.join(dataDirectory, 'broken.sta');
    writeFileSync(
      broken,
      ':20:STMT1\r\n:25:NL91ABNA0417164300\r\n:28C:1/1\r\n:60F:C240101EUR100,00\r\n:61:2401020102C10,00NTRFREF1\r\n:61:not an entry\r\n:62F:C240102EUR110,00\r\n-\r\n',
    );
    const result = importFile(broken, '--format', 'mt940', '--allow-other-account');
    assert.equal(result.status, 1);
    assert.match(result.stderr, /nothing of the file was stored/);
    assert.match(result.stderr, /line 6/);
    // The same statement without its bad line: its entry is new, so the broken file kept nothing.
    const whole = path.join(dataDirectory, 'whole.sta');
    writeFileSync(
      whole,
      ':20:STMT1\r\n:25:NL91ABNA0417164300\r\n:28C:1/1\r\n:60F:C240101EUR100,00\r\n:61:2401020102C10,00NTRFREF1\r\n:62F:C240102EUR110,00\r\n-\r\n',
    );
    const imported = importFile(whole, '--format', 'mt940', '--json', '--allow-other-account');
    assert.equal(imported.status, 0, imported.stderr);
    assert.equal(JSON.parse(imported.stdout).inserted, 1);
  });

  it('explains bad arguments with exit code 2', () => {
    const missing = run(['import', 'no-such-file.xml', '--org', demo.orgId, '--dataset', demo.datasetId], environment);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read "no-such-file.xml": no such file/);
    const noDataset = run(['import', 'test/fixtures/imports/mt940/abn-amro-unstructured.sta', '--org', demo.orgId], environment);
    assert.equal(noDataset.status, 2);
    assert.match(noDataset.stderr, /import needs --dataset ID/);
    const badFormat = importFile('test/fixtures/imports/mt940/abn-amro-unstructured.sta', '--format', 'pdf');
    assert.equal(badFormat.status, 1);
    assert.match(badFormat.stderr, /ledger-recon: --format: must be one of csv, camt\.052/);
    // The importer's fields are named as this command's options, never as places in an HTTP request.
    const unknownMapping = importFile('test/fixtures/imports/csv/ing-nl.csv', '--mapping-name', 'nowhere');
    assert.equal(unknownMapping.status, 1);
    assert.match(unknownMapping.stderr, /--mapping-name: the dataset has no mapping named "nowhere"; save a mapping under that name on the dataset first/);
    assert.doesNotMatch(unknownMapping.stderr, /querystring|PUT \//);
  });
});
