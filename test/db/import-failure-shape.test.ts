import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { migrate } from '../../src/db/migrate.ts';
import { IMPORT_FAILURE_REASONS } from '../../src/domain/imports/import-failure.ts';
import { openTestStore, storeKinds } from '../../support/harness.ts';

/**
 * Migration 0015: the failed imports stored in the shapes of before (the job-failure trigger's
 * {code, message}, the importer's {message, line, column, xmlPath}) get the one shape, and the
 * database refuses any other from then on.
 */
const SHAPE_MIGRATION = 15;

for (const kind of storeKinds()) {
  describe(`the shape of a failed import's error in the store (${kind})`, () => {
    it('repairs the imports stored before, and refuses another shape afterwards', async () => {
      const { database, drop } = await openTestStore(kind, { migrateThrough: SHAPE_MIGRATION - 1 });
      try {
        const organizationId = randomUUID();
        const sourceId = randomUUID();
        const datasetId = randomUUID();
        await database.query("INSERT INTO organizations (id, name) VALUES ($1, 'Repair')", [organizationId]);
        await database.query("INSERT INTO sources (id, organization_id, name) VALUES ($1, $2, 'Source')", [sourceId, organizationId]);
        await database.query("INSERT INTO datasets (id, organization_id, source_id, name) VALUES ($1, $2, $3, 'Dataset')", [
          datasetId,
          organizationId,
          sourceId,
        ]);
        const stored: [string, string, unknown][] = [
          ['job', 'failed', { code: 'job_failed', message: 'the process died' }],
          ['file', 'failed', { message: 'line 7: found "2403XX"; expected a date YYMMDD', line: 7, column: null, xmlPath: null }],
          ['xml', 'failed', { message: 'line 3, at /Document/Stmt: found text; expected an element', line: 3, column: null, xmlPath: '/Document/Stmt' }],
          ['fileWithoutLine', 'failed', { message: 'found an empty file; expected a header row', line: null, column: null, xmlPath: null }],
          ['internal', 'failed', { message: 'internal error while importing', line: null, column: null, xmlPath: null }],
          [
            'stopped',
            'failed',
            { message: 'the server stopped while importing this file; nothing of it was stored; send the file again', line: null, column: null, xmlPath: null },
          ],
          [
            'upload',
            'failed',
            {
              message: 'the file did not arrive whole (the upload was interrupted); nothing of it was stored; send it again',
              line: null,
              column: null,
              xmlPath: null,
            },
          ],
          [
            'needsMapping',
            'failed',
            { message: 'this CSV file needs a mapping: its header ("a", "b") does not name the dataset\'s columns', line: null, column: null, xmlPath: null },
          ],
          ['noError', 'failed', null],
          ['completed', 'completed', null],
          ['runningWithError', 'running', { message: 'left over' }],
        ];
        const ids = new Map<string, string>();
        for (const [name, status, error] of stored) {
          const id = randomUUID();
          ids.set(name, id);
          await database.query(`INSERT INTO imports (id, organization_id, dataset_id, status, created_by, error) VALUES ($1, $2, $3, $4, 'test', $5::jsonb)`, [
            id,
            organizationId,
            datasetId,
            status,
            JSON.stringify(error),
          ]);
        }

        await migrate(database);

        const rows = await database.query<{ id: string; error: any }>('SELECT id, error FROM imports WHERE organization_id = $1', [organizationId]);
        const errorOf = (name: string) => rows.find((row) => row.id === ids.get(name))!.error;
        const interrupted = { reason: 'interrupted', message: errorOf('job').message, line: null, column: null, xmlPath: null };
        assert.match(interrupted.message, /send the file again/);
        assert.deepEqual(errorOf('job'), interrupted);
        assert.deepEqual(errorOf('noError'), interrupted);
        assert.deepEqual(errorOf('file'), { reason: 'file', message: 'line 7: found "2403XX"; expected a date YYMMDD', line: 7, column: null, xmlPath: null });
        assert.deepEqual(errorOf('xml'), {
          reason: 'file',
          message: 'line 3, at /Document/Stmt: found text; expected an element',
          line: 3,
          column: null,
          xmlPath: '/Document/Stmt',
        });
        assert.equal(errorOf('fileWithoutLine').reason, 'file');
        assert.equal(errorOf('internal').reason, 'internal');
        assert.doesNotMatch(errorOf('internal').message, /^internal error/);
        assert.equal(errorOf('stopped').reason, 'interrupted');
        assert.equal(errorOf('upload').reason, 'upload');
        assert.equal(errorOf('needsMapping').reason, 'refused');
        assert.equal(errorOf('completed'), null);
        assert.equal(errorOf('runningWithError'), null);

        // From now on every writer is held to the shape: each reason of the domain's list is taken,
        // anything else refused.
        for (const reason of IMPORT_FAILURE_REASONS) {
          await database.query(`UPDATE imports SET error = import_failure($2, 'why', NULL, NULL, NULL) WHERE id = $1`, [ids.get('file'), reason]);
        }
        for (const wrong of [
          { code: 'job_failed', message: 'x' },
          { reason: 'other', message: 'x', line: null, column: null, xmlPath: null },
          { reason: 'file', message: 'x' },
        ]) {
          await assert.rejects(
            database.query(`UPDATE imports SET error = $2::jsonb WHERE id = $1`, [ids.get('file'), JSON.stringify(wrong)]),
            /imports_error_shape/,
          );
        }
        await assert.rejects(database.query(`UPDATE imports SET error = NULL WHERE id = $1`, [ids.get('file')]), /imports_failed_with_error/);
      } finally {
        await drop();
      }
    });
  });
}
