import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEvent, Transaction } from '@ledger-recon/sdk';
import { actorWords, historySentence, nameOf, statusWords } from '../../web/src/transaction-words.ts';

/**
 * A transaction's history in sentences (web/src/transaction-words.ts): the counterpart and the
 * rule by their names, the status in words, a person's reason; never an event code or an id.
 */

const SUBJECT = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const RULE = '33333333-3333-4333-8333-333333333333';
const RUN = '44444444-4444-4444-8444-444444444444';
const westcott = {
  id: OTHER,
  datasetId: RUN,
  description: 'Westcott Dental',
  timestamp: Date.parse('2026-01-03T00:00:00Z'),
  amount: '950.00',
  currency: 'EUR',
} as unknown as Transaction;

function event(change: Partial<AuditEvent>): AuditEvent {
  return {
    id: RUN,
    occurredAt: '2026-01-04T10:00:00Z',
    actor: `run:${RUN}`,
    actorName: 'a rule run',
    action: 'match.created',
    transactionId: SUBJECT,
    relatedTransactionId: OTHER,
    matchId: null,
    groupId: null,
    before: null,
    after: null,
    note: `run ${RUN}`,
    requestId: null,
    ...change,
  };
}

const names = { subjectId: SUBJECT, transactions: new Map([[OTHER, westcott]]), ruleNames: new Map([[RULE, 'Bank to ledger']]) };
const ID_OR_CODE = /[0-9a-f]{8}-[0-9a-f]{4}-|match\.created|status_changed|run:/i;

describe("a transaction's history in sentences", () => {
  it('names the counterpart, the rule and the run of a match', () => {
    const sentence = historySentence(event({ after: { ruleId: RULE } }), names);
    assert.match(sentence, /^Matched with 950\.00 EUR Westcott Dental of .*2026 by rule “Bank to ledger” in a run$/);
    assert.doesNotMatch(sentence, ID_OR_CODE);
  });

  it('tells a status change in words, and a status set by a person with the reason', () => {
    const changed = event({
      action: 'transaction.status_changed',
      relatedTransactionId: null,
      before: { reconciliationStatus: 'none' },
      after: { reconciliationStatus: 'full' },
    });
    assert.equal(historySentence(changed, names), 'Status changed from open to reconciled');
    const marked = event({
      action: 'transaction.status_changed',
      actor: 'user:ada@example.com',
      relatedTransactionId: null,
      note: 'bank charge',
      before: { reconciliationStatus: 'none' },
      after: { reconciliationStatus: 'informative' },
    });
    assert.equal(historySentence(marked, names), 'Marked informative by ada@example.com: bank charge');
    const cleared = event({ ...marked, note: null, before: { reconciliationStatus: 'informative' }, after: { reconciliationStatus: 'none' } });
    assert.equal(historySentence(cleared, names), '“informative” cleared by ada@example.com');
  });

  it('never shows an id, even of what it cannot name', () => {
    const unknown = event({ actor: `client:${RUN}`, action: 'match.deleted', relatedTransactionId: RULE, note: null });
    assert.equal(historySentence(unknown, names), 'Unmatched from a transaction by an API client');
    assert.equal(actorWords(`user:${RUN}`, new Map()), 'a person');
    assert.equal(statusWords('partial'), 'partly reconciled');
    assert.match(nameOf(westcott), /^950\.00 EUR Westcott Dental of /);
  });
});
