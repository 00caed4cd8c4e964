import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumSkip, launchChromium } from '../../support/browser.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';

/**
 * The API documentation (Swagger UI at /docs) in a real Chromium: under its
 * Content-Security-Policy it draws every operation and sends a request with "Try it out", and
 * the browser refuses nothing it does.
 */

/** Run in the page before its own scripts: every refusal by the page's policy is noted. */
const NOTE_REFUSALS = `window.refusals = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.refusals.push(event.effectiveDirective + ' refused ' + (event.blockedURI || 'an inline ' + event.effectiveDirective) + ' (' + event.sourceFile + ':' + event.lineNumber + ')');
});`;

describe('API documentation in a browser', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startTestServer('pglite');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('works under its Content-Security-Policy without a refusal', async () => {
    const page = await browser.newPage();
    const consoleRefusals: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) consoleRefusals.push(message.text());
    });
    await page.addInitScript(NOTE_REFUSALS);
    const response = await page.goto(`${server.baseUrl}/docs`);
    assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    await page.locator('.swagger-ui .info .title').waitFor();
    assert.ok((await page.locator('.opblock').count()) > 50, 'every operation is listed');

    await page.locator('#operations-Health-getHealth').click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByRole('button', { name: 'Execute' }).click();
    const status = page.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    assert.equal((await status.textContent())?.trim(), '200');

    assert.deepEqual(await page.evaluate('window.refusals'), []);
    assert.deepEqual(consoleRefusals, []);
    await page.close();
  });
});
