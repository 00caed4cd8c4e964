import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertWebAppBuilt, chromiumSkip, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * A payment provider's settlement report dropped on the Imports screen: the preview says which
 * report it is and asks for no mapping, and the import reads it with its preset.
 */
describe('web app: a settlement report imports without a mapping', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('names the Adyen Settlement details report in the preview, imports it with no mapping and reports what it left out', async () => {
    const base = `/v1/api/${organization.orgId}`;
    const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Stripe' });
    assert.equal(source.status, 201, JSON.stringify(source.body));
    const dataset = await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, { name: 'Balance EUR', columns: [] });
    assert.equal(dataset.status, 201, JSON.stringify(dataset.body));

    const page = await signInPage(browser, server, organization);
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    await page.getByLabel('Into dataset').selectOption({ label: 'Stripe · Balance EUR' });
    await page.locator('input[type=file]').setInputFiles('test/fixtures/imports/settlement/adyen-settlement-details.csv');
    const preview = page.getByRole('region', { name: 'How the file will be read' });
    await preview.getByText(/This is the Adyen Settlement details report/).waitFor();
    assert.equal(await preview.getByRole('button', { name: /^Column “.*” holds/ }).count(), 0, 'no column to map');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'settlement-preview');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('region', { name: 'Import report' });
    await report.getByRole('heading', { name: 'adyen-settlement-details.csv: imported' }).waitFor();
    const text = (await report.textContent()) ?? '';
    assert.match(text, /8 entries read · 8 new · 0 already known/);
    assert.match(text, /10 rows below the header, 8 imported and 2 left out as no transaction of a payout \(2 MerchantPayout \(the payout itself\)\)/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'settlement-report');
    await page.context().close();
  });
});
