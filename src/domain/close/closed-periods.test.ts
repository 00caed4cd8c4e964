import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closedPeriodErrors } from '../../errors.ts';
import { describeProblem, fitForPeople } from '../../../web/src/messages.ts';
import { periodName } from './closed-periods.ts';

describe('closed periods in words', () => {
  it('names a period as accountants do', () => {
    assert.equal(periodName('2026-03-01', '2026-03-31'), 'March 2026');
    assert.equal(periodName('2024-02-01', '2024-02-29'), 'February 2024');
    assert.equal(periodName('2026-01-01', '2026-03-31'), 'January to March 2026');
    assert.equal(periodName('2025-11-01', '2026-01-31'), 'November 2025 to January 2026');
    assert.equal(periodName('2026-03-01', '2026-03-15'), '1 March 2026 to 15 March 2026');
    assert.equal(periodName('2026-02-01', '2026-02-27'), '1 February 2026 to 27 February 2026');
  });

  it('says which period, who closed it, how much is touched and how to reopen it, in the API and in the app', () => {
    const error = closedPeriodErrors.periodClosed(
      'March 2026 of Operating account EUR ↔ GL 1200',
      'approved by ann@example.com on 3 April 2026',
      1,
      'transaction',
      0,
    );
    assert.equal(error.kind, 'conflict');
    assert.equal(error.messageId, 'closedPeriods.periodClosed');
    assert.match(
      error.message,
      /^March 2026 of Operating account EUR ↔ GL 1200 is closed \(approved by ann@example\.com on 3 April 2026\): 1 transaction is dated in it, /,
    );
    assert.match(error.message, /an Administrator can reopen the period with a reason/);
    const rows = closedPeriodErrors.periodClosed('March 2026 of Operating account EUR ↔ GL 1200', 'approved', 12, 'row of the file', 2);
    assert.match(rows.message, /: 12 rows of the file are dated in it \(and this touches 2 more closed periods\), /);

    const shown = describeProblem({
      code: 409,
      message: `ids[0] (3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b): ${rows.message}`,
      messageId: rows.messageId,
      details: [],
    });
    assert.equal(
      shown,
      'March 2026 of Operating account EUR ↔ GL 1200 is closed (approved), and 12 rows of the file are dated in it. Nothing in a closed period can be changed, so nothing was done. An Administrator can reopen the period with a reason.',
    );
    assert.ok(fitForPeople(shown));
  });
});
