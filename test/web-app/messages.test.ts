import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as errors from '../../src/errors.ts';
import { AppError } from '../../src/errors.ts';
import { cleaned, describeProblem, fitForPeople, NOT_MET_BY_THE_APP, pointerInWords, TRANSLATIONS, type ApiProblem } from '../../web/src/messages.ts';

/**
 * The web app words the API's errors itself (web/src/messages.ts): every message of the service's
 * catalogue (src/errors.ts) has words there, or is listed as one the app cannot meet; no message it
 * shows holds an id, an HTTP verb, a path, a JSON pointer, a scope name or a field to send.
 */

const ID = '3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b';
/** A stand-in for any argument of a factory: a list of one problem, which also reads as an error and as text. */
const DETAILS = Object.assign([{ path: '/columns/1/name', message: `"Amount" is used twice; give each column its own name (${ID})` }], {
  message: `mapping ${ID}: /columns/amount is missing`,
  details: [{ path: '/columns/amount', message: 'is missing' }],
  toString: () => ID,
});
const ARGUMENT_SETS: unknown[][] = [Array(6).fill(ID), Array(6).fill(DETAILS), Array(6).fill(['Date', 'Amount', ID])];

/** Every factory of the catalogue, with its name and an error it makes (null when no stand-in fits its arguments). */
function catalogueEntries(): { messageId: string; error: AppError | null }[] {
  const entries: { messageId: string; error: AppError | null }[] = [];
  for (const exported of Object.values(errors)) {
    if (typeof exported !== 'object' || exported === null) continue;
    const factories = Object.entries(exported as Record<string, unknown>).filter(([, value]) => typeof value === 'function') as [
      string,
      (...args: unknown[]) => unknown,
    ][];
    const made = factories.map(([name, make]) => {
      for (const args of ARGUMENT_SETS) {
        try {
          const error = make(...args);
          if (error instanceof AppError && !/undefined|\[object/.test(error.message)) return { name, error };
        } catch {
          // Another stand-in may fit.
        }
      }
      return { name, error: null };
    });
    const area = made.find((entry) => entry.error?.messageId !== undefined)?.error?.messageId?.split('.')[0];
    if (area === undefined) continue; // not a catalogue
    for (const entry of made) entries.push({ messageId: `${area}.${entry.name}`, error: entry.error });
  }
  return entries;
}

const STATUS_OF_KIND: Record<string, number> = {
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  too_many_requests: 429,
  service_unavailable: 503,
  payload_too_large: 413,
};

function problemOf(error: AppError): ApiProblem {
  return {
    code: STATUS_OF_KIND[error.kind] ?? 400,
    message: error.message,
    messageId: error.messageId,
    details: error.details.map((detail) => ({ path: detail.in ? `/querystring${detail.path}` : detail.path, message: detail.message })),
    retryAfterSeconds: error.hints.retryAfterSeconds,
  };
}

describe('the web app’s words for errors', () => {
  const entries = catalogueEntries();

  it('finds the catalogue', () => {
    assert.ok(entries.length > 40, `${entries.length} catalogue entries`);
    assert.ok(entries.some((entry) => entry.messageId === 'imports.fileEmpty'));
  });

  it('has words for every message of the catalogue the app can meet', () => {
    const missing = entries.map((entry) => entry.messageId).filter((id) => !(id in TRANSLATIONS) && !(id in NOT_MET_BY_THE_APP));
    assert.deepEqual(missing, [], 'add each to TRANSLATIONS in web/src/messages.ts (or to NOT_MET_BY_THE_APP, with the reason)');
    const unknown = [...Object.keys(TRANSLATIONS), ...Object.keys(NOT_MET_BY_THE_APP)].filter((id) => !entries.some((entry) => entry.messageId === id));
    assert.deepEqual(unknown, [], 'names no longer in the catalogue');
  });

  it('words each of them as sentences fit for a person', () => {
    for (const { messageId, error } of entries) {
      if (error === null) continue;
      const text = describeProblem(problemOf(error));
      assert.ok(fitForPeople(text), `${messageId}: ${text}`);
      assert.match(text, /^[A-Z].*[.!?]$/s, `${messageId}: ${text}`);
      assert.doesNotMatch(text, /undefined|\[object/, `${messageId}: ${text}`);
    }
  });

  it('says what a refused file, a duplicate column and a rule problem are, in words', () => {
    const refused = describeProblem(problemOf(errors.importErrors.fileRefused('the camt.053 file was not imported', 'line 12: <Amt> is not an amount')));
    assert.equal(refused, 'The file could not be imported, nothing of it was kept: line 12: <Amt> is not an amount.');
    const rule = describeProblem(
      problemOf(errors.matchingErrors.ruleInvalid([{ path: '/conditions/0/path', message: 'is not a column of the target dataset' }], 0)),
    );
    assert.equal(rule, 'The rule was not saved. Condition 1, path: is not a column of the target dataset.');
    const other = describeProblem(problemOf(errors.importErrors.otherAccount('NL91ABNA0417164300', 3, 'Operating EUR', 'DE89370400440532013000')));
    assert.match(other, /^The file is a statement of account NL91ABNA0417164300, but the dataset Operating EUR holds/);
  });

  it('words the messages outside the catalogue by their status, cleaned of ids and fields to send', () => {
    assert.equal(
      describeProblem({ code: 404, message: `run ${ID} was not found in this organization`, details: [] }),
      'This run no longer exists: someone may have deleted it. Reload the page to see what is there now.',
    );
    assert.match(
      describeProblem({ code: 403, message: 'this operation needs the scope "write:data", which the credentials\' role does not grant', details: [] }),
      /^Your role does not allow this/,
    );
    assert.equal(describeProblem({ code: 401, message: 'the access token has expired', details: [] }), 'Your session has ended. Sign in again to continue.');
    const conflict = describeProblem({
      code: 409,
      message: `link 0 joins a EUR transaction to a USD transaction; send "force": true to match across currencies on purpose`,
      details: [{ path: '/links/0', message: 'currencies differ: EUR and USD' }],
    });
    assert.ok(fitForPeople(conflict), conflict);
    assert.doesNotMatch(conflict, /force/);
    const suggestion = describeProblem({ code: 409, message: `suggestion ${ID} is rejected; only a pending suggestion can be confirmed`, details: [] });
    assert.equal(suggestion, 'This suggestion is rejected; only a pending suggestion can be confirmed.');
    const validation = describeProblem({
      code: 400,
      message: 'invalid request: /name: must NOT have fewer than 1 characters',
      details: [{ path: '/name', message: 'must NOT have fewer than 1 characters' }],
    });
    assert.equal(validation, 'Name: must NOT have fewer than 1 characters.');
    assert.match(describeProblem({ code: 0, message: `POST https://x/v1/api/${ID}/sources failed: ECONNREFUSED`, details: [] }), /could not be reached/);
    assert.match(describeProblem({ code: 500, message: `internal error; quote request id ${ID} when reporting it`, details: [] }), /^Something went wrong/);
  });

  it('names fields by their words, not their pointers', () => {
    assert.equal(pointerInWords('/columns/1/name'), 'column 2, name');
    assert.equal(pointerInWords('/querystring/cursor'), 'position in the list');
    assert.equal(pointerInWords('/origin/datasetIds/0'), 'origin, dataset 1');
    assert.equal(cleaned(`/columns/1/name: "x" is used twice`), 'Column 2, name: "x" is used twice');
    assert.equal(cleaned('send it to GET /v1/api/x'), null);
  });

  it('knows what is unfit to show', () => {
    for (const unfit of [ID, '1546819200000', 'GET /sources', 'see /v1/api/org', '/columns/0/name', 'needs write:data', 'send "force": true'])
      assert.equal(fitForPeople(`a ${unfit} b`), false, unfit);
    for (const fit of ['7 Jan 2019', '1,000.00 EUR', 'IBAN DE89370400440532013000', 'Get the file', 'a dataset and/or a source', '12/31/2019'])
      assert.equal(fitForPeople(fit), true, fit);
  });
});
