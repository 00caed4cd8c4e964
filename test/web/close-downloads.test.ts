import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { seedCloseMonth, type SeededCloseMonth } from '../../support/close-month.ts';
import { createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The statement's reports in the browser: the statement as PDF, as a spreadsheet, its items as
 * CSV, and (the period having a fee adjustment) its journal entries, each saved under the name
 * the server gives it.
 */
describe('month-end close: the reports of a statement', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let month: SeededCloseMonth;
  const SHOTS = '/tmp/shots/close-finish';

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    month = await seedCloseMonth(server, organization);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('downloads the statement as PDF under the name the server gives it', async () => {
    const page = await signInPage(browser, server, organization);
    await page.goto(`${server.baseUrl}/close/${month.reconciliationId}?periodEnd=2026-03-31`);
    const reports = page.getByRole('region', { name: 'Reports' });
    await reports.getByRole('button', { name: 'Download PDF' }).waitFor();
    for (const name of ['Download spreadsheet (XLSX)', 'Download items (CSV)', 'Journal entries (CSV)']) {
      assert.equal(await reports.getByRole('button', { name }).count(), 1, name);
    }

    const arriving = page.waitForEvent('download');
    await reports.getByRole('button', { name: 'Download PDF' }).click();
    const download = await arriving;
    assert.match(download.suggestedFilename(), /^Operating account EUR .* - March 2026\.pdf$/);
    const bytes = readFileSync((await download.path())!);
    assert.ok(bytes.length > 0, 'the PDF has content');
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');

    const csvArriving = page.waitForEvent('download');
    await reports.getByRole('button', { name: 'Download items (CSV)' }).click();
    assert.match((await csvArriving).suggestedFilename(), / - March 2026 - items\.csv$/);

    assert.deepEqual(await seriousViolations(page), []);
    await reports.scrollIntoViewIfNeeded();
    await screenshotsAt(page, 'shots/close-finish/statement-reports', true);
  });
});
