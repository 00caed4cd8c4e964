import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import { assertWebAppBuilt, chromiumSkip, copiedBy, fieldError, launchChromium, screenshotsAt, seriousViolations, signInPage } from '../../support/browser.ts';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { startSshd, type TestSshd } from '../../support/sshd.ts';
import { camt053Statement, EURO_STATEMENT } from '../../support/statement-files.ts';

/** The euro account's statement of the month after EURO_STATEMENT's: other entries, another file. */
const APRIL_STATEMENT = camt053Statement({
  id: 'EUR-04',
  iban: 'DE89370400440532013000',
  currency: 'EUR',
  opening: { amount: '1424.50', date: '2026-04-01' },
  closingDate: '2026-04-30',
  entries: [{ reference: 'E4', amount: '75.00', date: '2026-04-14', text: 'Customer payment' }],
});
import { UNFIT_FOR_PEOPLE } from '../../web/src/messages.ts';

/** What the page shows that no person can use (an id, a route, a JSON pointer...), each named. */
async function unfitOnScreen(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return UNFIT_FOR_PEOPLE.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
}

/** How wide the page is at a phone's width: 390 when nothing scrolls sideways. */
async function pageWidthOnAPhone(page: Page): Promise<number> {
  await page.setViewportSize({ width: 390, height: 844 });
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  await page.setViewportSize({ width: 1400, height: 900 });
  return width;
}

/**
 * The connections screen in a real Chromium, on a folder connection of a real server (its
 * CONNECTOR_FOLDER_ROOT a temporary directory): a folder that does not exist refused in words, the
 * connection added and tested, a pickup added, run now, and its history showing the file imported
 * with a link to the import on the imports page; then the folder taken away, the failure in words
 * on the connection and, once it has lasted a day, flagged on the dashboard with a link back.
 */
describe('connections in the web app', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let page: Page;
  let root: string;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'connections-web-'));
    await mkdir(path.join(root, 'bank', 'in'), { recursive: true });
    await mkdir(path.join(root, 'bank', 'done'), { recursive: true });
    await mkdir(path.join(root, 'bank', 'marked'), { recursive: true });
    await writeFile(path.join(root, 'bank', 'in', 'statement.xml'), EURO_STATEMENT);
    // A second look one second after the first, in the same run: a file that holds still is taken by the first run.
    // Imports take at most 64 KB here, so that a file over the limit is met on a run.
    server = await startTestServer('pglite', { connectorFolderRoot: root, connectorSettleSeconds: 1, secretEncryptionKey: null, importMaxBytes: 64 * 1024 });
    organization = await createTestOrganization(server);
    const call = (method: string, url: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${url}`, body);
    const source = await call('POST', '/sources', { name: 'Folder bank' });
    assert.equal((await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Statements', columns: [] })).status, 201);
    assertWebAppBuilt();
    browser = await launchChromium();
    page = await signInPage(browser, server, organization, { timezoneId: 'Europe/Berlin' });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('adds a folder connection, refusing a folder that does not exist in words', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
    await page.getByText('No connections yet.', { exact: false }).waitFor();
    const form = page.getByRole('form', { name: 'Add a connection' });
    // SFTP is the first choice: the key the service generates is proposed.
    assert.equal(await form.getByLabel('Generate a key').isChecked(), true);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'connections-add', true);

    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Shared folder');
    await form.getByLabel('In a folder of this server').check();
    await form.getByLabel('Folder', { exact: true }).fill('nowhere');
    await form.getByRole('button', { name: 'Add the connection' }).click();
    assert.equal(
      await fieldError(page, form.getByLabel('Folder', { exact: true })),
      'There is no folder of this name that the service can read. Create it, or check its name.',
    );
    await form.getByLabel('Folder', { exact: true }).fill('bank');
    await form.getByRole('button', { name: 'Add the connection' }).click();
    const card = page.getByRole('region', { name: 'Shared folder' });
    await card.getByText('Not run yet').waitFor();
    await card.getByText('No pickups yet', { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText('The connection works', { exact: false }).waitFor();
  });

  it('adds a pickup, runs it now, and shows the file imported with a link to its import', async () => {
    const card = page.getByRole('region', { name: 'Shared folder' });
    await card.getByRole('button', { name: 'Add a pickup to Shared folder' }).click();
    const form = card.getByRole('form', { name: 'New pickup of Shared folder' });
    await form.getByLabel('Folder', { exact: true }).fill('in');
    await form.getByLabel('File names').fill('*.xml');
    await form.getByRole('textbox', { name: /^Every/ }).fill('5');
    await form.getByRole('combobox', { name: 'Dataset' }).selectOption({ label: 'Folder bank · Statements' });
    await form.getByLabel('Move it to an archive folder').check();
    await form.getByRole('textbox', { name: 'Archive folder' }).fill('done');
    await form.getByLabel('Delete it').check();
    await form.getByText('This cannot be undone', { exact: false }).waitFor();
    await form.getByLabel('Move it to an archive folder').check();
    await screenshotsAt(page, 'connections-pickup-form', true);
    await form.getByRole('button', { name: 'Add the pickup' }).click();

    const pickup = card.getByRole('article', { name: 'Files *.xml in folder in' });
    await pickup.getByText('every 5 minutes', { exact: false }).waitFor();
    await pickup.getByText('No runs yet', { exact: false }).waitFor();
    await pickup.getByRole('button', { name: 'Run now: Files *.xml in folder in' }).click();
    const link = pickup.getByRole('link', { name: 'See the import of statement.xml' });
    await link.waitFor({ timeout: 20_000 });
    const runs = pickup.getByRole('list', { name: 'Runs of the pickup: Files *.xml in folder in' });
    const text = (await runs.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /run now Done · 1 imported/);
    assert.match(text, /statement\.xml \([\d.]+ KB\): Imported into Folder bank · Statements, then moved to the archive folder done\./);
    assert.deepEqual(await readdir(path.join(root, 'bank', 'done')), ['statement.xml']);
    // The run's success reaches the connection.
    await card.getByText('Working').waitFor();
    assert.deepEqual(await unfitOnScreen(page), []);
    assert.deepEqual(await seriousViolations(page), []);
    assert.equal(await pageWidthOnAPhone(page), 390);
    await screenshotsAt(page, 'connections-history', true);

    // Changed: looked at every hour; paused, and on schedule again.
    await pickup.getByRole('button', { name: 'Edit the pickup: Files *.xml in folder in' }).click();
    const edit = pickup.getByRole('form', { name: 'Edit the pickup: files *.xml in folder in' });
    assert.equal(await edit.getByRole('textbox', { name: 'Archive folder' }).inputValue(), 'done');
    await edit.getByRole('textbox', { name: /^Every/ }).fill('60');
    await edit.getByRole('button', { name: 'Save the pickup' }).click();
    await pickup.getByText('every hour', { exact: false }).waitFor();
    await pickup.getByRole('button', { name: 'Pause the pickup: Files *.xml in folder in' }).click();
    await pickup.getByText('Paused', { exact: true }).waitFor();
    await pickup.getByRole('button', { name: 'Resume the pickup: Files *.xml in folder in' }).click();
    await pickup.getByText('On schedule', { exact: true }).waitFor();

    await link.click();
    await page.getByRole('heading', { name: 'Import a file' }).waitFor();
    assert.match(page.url(), /\/imports\?import=/);
    const row = page.locator('tr[aria-current="true"]');
    await row.waitFor();
    const rowText = await row.innerText();
    assert.match(rowText, /statement\.xml/);
    assert.match(rowText, /picked up from Shared folder/);
    assert.deepEqual(await unfitOnScreen(page), []);
    // The audit trail names the connection that imported the file, not its id.
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    await page.getByRole('cell', { name: 'the connection Shared folder' }).first().waitFor();
    assert.deepEqual(await unfitOnScreen(page), []);
  });

  it('looks at times of day in a chosen time zone, switches to every N minutes, and waits for a ready marker', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    const card = page.getByRole('region', { name: 'Shared folder' });
    const call = (method: string, url: string, body?: unknown) => api(server, organization.token, method, `/v1/api/${organization.orgId}${url}`, body);
    await card.getByRole('button', { name: 'Add a pickup to Shared folder' }).click();
    const form = card.getByRole('form', { name: 'New pickup of Shared folder' });
    await form.getByLabel('Folder', { exact: true }).fill('in');
    await form.getByLabel('File names').fill('*.sta');
    await form.getByRole('combobox', { name: 'Dataset' }).selectOption({ label: 'Folder bank · Statements' });
    // Every N minutes is the first choice; at times of day, the zone is the browser's until another is chosen.
    assert.equal(await form.getByLabel('Every N minutes').isChecked(), true);
    await form.getByLabel('At times of day').check();
    assert.equal(await form.getByRole('textbox', { name: /^Every/ }).count(), 0);
    assert.equal(await form.getByRole('combobox', { name: 'Time zone' }).inputValue(), 'Europe/Berlin');
    await form.getByRole('textbox', { name: 'Times of day' }).fill('6:30, 25:00');
    await form.getByRole('button', { name: 'Add the pickup' }).click();
    assert.equal(
      await fieldError(page, form.getByRole('textbox', { name: 'Times of day' })),
      '25:00 is not a time of day. Write each time as hours and minutes on a 24-hour clock, such as 06:00 or 14:30.',
    );
    await form.getByRole('textbox', { name: 'Times of day' }).fill('18:00, 6:30');
    await form.getByRole('combobox', { name: 'Time zone' }).selectOption('America/New_York');
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'connections-pickup-form-times', true);
    await form.getByRole('button', { name: 'Add the pickup' }).click();

    const pickup = card.getByRole('article', { name: 'Files *.sta in folder in' });
    await pickup.getByText('at 06:30 and 18:00 (America/New York time), next at', { exact: false }).waitFor();
    const listed = await call('GET', '/connections');
    const connectionId = listed.body.find((connection: { name: string }) => connection.name === 'Shared folder').id;
    const pickups = async () => (await call('GET', `/connections/${connectionId}/pickups`)).body as Record<string, unknown>[];
    const saved = (await pickups()).find((candidate) => candidate.pattern === '*.sta')!;
    assert.deepEqual([saved.intervalMinutes, saved.timesOfDay, saved.timeZone, saved.readyMarker], [null, ['06:30', '18:00'], 'America/New_York', null]);

    // Edited: the form shows the times as they are, and switching to every N minutes lets go of them.
    await pickup.getByRole('button', { name: 'Edit the pickup: Files *.sta in folder in' }).click();
    const edit = pickup.getByRole('form', { name: 'Edit the pickup: files *.sta in folder in' });
    assert.equal(await edit.getByLabel('At times of day').isChecked(), true);
    assert.equal(await edit.getByRole('textbox', { name: 'Times of day' }).inputValue(), '06:30, 18:00');
    assert.equal(await edit.getByRole('combobox', { name: 'Time zone' }).inputValue(), 'America/New_York');
    await edit.getByLabel('Every N minutes').check();
    await edit.getByRole('textbox', { name: /^Every/ }).fill('30');
    // Paused, so that no scheduled look runs while the test goes on.
    await edit.getByLabel('On schedule', { exact: false }).uncheck();
    await edit.getByRole('button', { name: 'Save the pickup' }).click();
    await pickup.getByText('every 30 minutes when on schedule; paused now', { exact: false }).waitFor();
    const switched = (await pickups()).find((candidate) => candidate.pattern === '*.sta')!;
    assert.deepEqual([switched.intervalMinutes, switched.timesOfDay, switched.timeZone], [30, null, null]);

    // A pickup that waits for the sender's marker; a file over the import size limit is said in words.
    await writeFile(path.join(root, 'bank', 'marked', 'statement.xml'), APRIL_STATEMENT);
    await writeFile(path.join(root, 'bank', 'marked', 'big.xml'), 'x'.repeat(70 * 1024));
    await writeFile(path.join(root, 'bank', 'marked', 'big.xml.done'), '');
    await card.getByRole('button', { name: 'Add a pickup to Shared folder' }).click();
    const marked = card.getByRole('form', { name: 'New pickup of Shared folder' });
    await marked.getByLabel('Folder', { exact: true }).fill('marked');
    await marked.getByLabel('File names').fill('*.xml');
    await marked.getByRole('combobox', { name: 'Dataset' }).selectOption({ label: 'Folder bank · Statements' });
    assert.equal(await marked.getByLabel('Wait for a ready marker').isChecked(), false);
    await marked.getByLabel('Wait for a ready marker').check();
    assert.equal(await marked.getByRole('textbox', { name: 'Marker' }).inputValue(), '.done');
    await marked.getByText('statement.xml waits for statement.xml.done', { exact: false }).waitFor();
    await marked.getByLabel('On schedule', { exact: false }).uncheck();
    await screenshotsAt(page, 'connections-pickup-form-marker', true);
    await marked.getByRole('button', { name: 'Add the pickup' }).click();

    const markedPickup = card.getByRole('article', { name: 'Files *.xml in folder marked' });
    await markedPickup.getByText('a file is taken once the sender puts a file of its name followed by .done beside it', { exact: false }).waitFor();
    const runNow = markedPickup.getByRole('button', { name: 'Run now: Files *.xml in folder marked' });
    await runNow.click();
    const runs = markedPickup.getByRole('list', { name: 'Runs of the pickup: Files *.xml in folder marked' });
    await runs.getByText('Done', { exact: true }).waitFor({ timeout: 20_000 });
    let text = (await runs.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /statement\.xml \(\d+ bytes\): Waiting: the file is taken once its ready marker statement\.xml\.done is beside it\./);
    assert.match(
      text,
      /big\.xml \(70\.0 KB\): Failed: The file is 70 KB, more than 64 KB, the most an import takes, so it was not imported; it is not tried again while its name, size and time stay the same\. Ask the sender to split it/,
    );
    await writeFile(path.join(root, 'bank', 'marked', 'statement.xml.done'), '');
    await runNow.click();
    await markedPickup.getByRole('link', { name: 'See the import of statement.xml' }).waitFor({ timeout: 20_000 });
    text = (await runs.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /statement\.xml \(\d+ bytes\): Imported into Folder bank · Statements, then left where it was\./);
    assert.deepEqual(await unfitOnScreen(page), []);
    assert.deepEqual(await seriousViolations(page), []);
    assert.equal(await pageWidthOnAPhone(page), 390);
    await screenshotsAt(page, 'connections-pickup-marker-history', true);

    // The connection keeps its one pickup for what follows.
    for (const title of ['Files *.sta in folder in', 'Files *.xml in folder marked']) {
      await card.getByRole('button', { name: `Delete the pickup: ${title}` }).click();
      await card
        .getByRole('group', { name: `Delete the pickup: ${title}` })
        .getByRole('button', { name: 'Delete the pickup' })
        .click();
      await card.getByRole('article', { name: title }).waitFor({ state: 'detached' });
    }
  });

  it('says in words why the connection fails, and flags it on the dashboard once it has failed for a day', async () => {
    await rm(path.join(root, 'bank'), { recursive: true, force: true });
    await page.getByRole('link', { name: 'Connections' }).click();
    const card = page.getByRole('region', { name: 'Shared folder' });
    await card.getByRole('button', { name: 'Run now: Files *.xml in folder in' }).click();
    await card.getByText('Failing since', { exact: false }).waitFor({ timeout: 20_000 });
    const notice = (await card.locator('.notice-danger').innerText()).replace(/\s+/g, ' ');
    assert.match(notice, /1 run in a row failed/);
    assert.match(notice, /The connection's folder is gone or cannot be read\. Check that it still exists/);
    // Failing for a day: the failure is real, its start moved back.
    await server.database.query(`UPDATE connections SET failing_since = now() - interval '2 days' WHERE organization_id = $1`, [organization.orgId]);

    await page.getByRole('link', { name: 'Dashboard' }).click();
    const flag = page.getByRole('region', { name: 'Failing connections' });
    await flag.waitFor();
    assert.match(await flag.innerText(), /Shared folder: failing since .*, 1 run in a row\. The connection's folder is gone/);
    await screenshotsAt(page, 'connections-dashboard-flag');
    await flag.getByRole('link', { name: 'Shared folder' }).click();
    await page.getByRole('heading', { name: 'Shared folder', level: 2 }).waitFor();
    assert.match(page.url(), /\/connections#connection-/);
    await page.waitForFunction(`document.activeElement?.textContent === 'Shared folder'`);
  });

  it('deletes the connection after saying what is lost', async () => {
    const card = page.getByRole('region', { name: 'Shared folder' });
    await card.getByRole('button', { name: 'Delete the connection Shared folder' }).click();
    const confirm = card.getByRole('group', { name: 'Delete the connection Shared folder' });
    assert.match(
      await confirm.innerText(),
      /Its pickup and the history of their runs are deleted with it.*The files already imported stay imported\. This cannot be undone\./s,
    );
    await confirm.getByRole('button', { name: 'Delete the connection' }).click();
    await page.getByText('No connections yet.', { exact: false }).waitFor();
  });
});

/**
 * An SFTP connection in a real Chromium against Debian's OpenSSH server: a pasted key that is not
 * one refused in words, a generated key whose public half is shown with a copy button and
 * installed on the server, the host key's fingerprint shown by the test and trusted, and a host
 * key that then changes shown as a stop.
 */
describe('SFTP connections in the web app', { skip: chromiumSkip }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let browser: Browser;
  let page: Page;
  let sshd: TestSshd;

  before(async () => {
    sshd = await startSshd();
    server = await startTestServer('pglite', {
      secretEncryptionKey: randomBytes(32).toString('base64'),
      connectorSettleSeconds: 0,
      connectorTimeoutSeconds: 5,
    });
    organization = await createTestOrganization(server);
    assertWebAppBuilt();
    browser = await launchChromium();
    page = await signInPage(browser, server, organization, { permissions: ['clipboard-read', 'clipboard-write'] });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await sshd?.stop();
  });

  it('generates a key to hand to the bank, shows the host key to check, trusts it, and stops on a changed one', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    const form = page.getByRole('form', { name: 'Add a connection' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Bank SFTP');
    await form.getByRole('textbox', { name: 'Server', exact: true }).fill(sshd.host);
    await form.getByRole('textbox', { name: 'Port', exact: true }).fill(String(sshd.port));
    await form.getByRole('textbox', { name: 'User', exact: true }).fill(sshd.username);
    await form.getByLabel('Paste a private key').check();
    await form.getByRole('textbox', { name: 'Private key' }).fill('not a key');
    await form.getByRole('button', { name: 'Add the connection' }).click();
    assert.match(
      await fieldError(page, form.getByRole('textbox', { name: 'Private key' })),
      /^This is not a private key the service can use.*Paste an OpenSSH or PEM private key/,
    );
    await form.getByLabel('Generate a key').check();
    await form.getByRole('button', { name: 'Add the connection' }).click();

    const reveal = page.getByRole('region', { name: 'Bank SFTP: the public key to hand to the bank' });
    const publicKey = (await reveal.locator('pre').innerText()).trim();
    assert.match(publicKey, /^ssh-ed25519 AAAA/);
    assert.match(await reveal.innerText(), /Send this public key to the bank and ask them to allow it for the user/);
    const copied = await copiedBy(page, () => reveal.getByRole('button', { name: 'Copy the public key of Bank SFTP' }).click());
    assert.equal(copied, publicKey);
    await screenshotsAt(page, 'connections-public-key');
    await sshd.authorize(publicKey);
    await reveal.getByRole('button', { name: 'Done' }).click();

    const card = page.getByRole('region', { name: 'Bank SFTP' });
    await card.getByText('Host key to confirm').waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    const check = card.locator('.notice-check');
    await check.waitFor();
    assert.equal(await check.locator('.fingerprint code').innerText(), sshd.fingerprint);
    assert.match(await check.innerText(), /its host key is not confirmed yet, so nothing was sent to it/);
    assert.deepEqual(await seriousViolations(page), []);
    await screenshotsAt(page, 'connections-host-key', true);
    // The key changes after the test showed it, and another test (here through the API) sees the new one:
    // the fingerprint on the screen is no longer the one last seen, and trusting it is refused in words.
    const shown = sshd.fingerprint;
    await sshd.changeHostKey();
    const connections = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/connections`);
    const connectionId = connections.body.find((connection: { name: string }) => connection.name === 'Bank SFTP').id;
    const retest = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/connections/${connectionId}/test`);
    assert.equal(retest.body.hostKeyFingerprint, sshd.fingerprint);
    assert.notEqual(shown, sshd.fingerprint);
    await check.getByRole('button', { name: 'I checked this with the bank — trust it' }).click();
    await card
      .getByText(
        'This is not the fingerprint the last connection test showed, so it was not trusted. Test the connection again and trust the fingerprint it shows, once the bank has confirmed it.',
      )
      .waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.locator('.notice-check .fingerprint code', { hasText: sshd.fingerprint }).waitFor();
    await check.getByRole('button', { name: 'I checked this with the bank — trust it' }).click();
    await card.getByText("The server's host key is confirmed.", { exact: false }).waitFor();
    await card.locator('.endpoint-facts code', { hasText: sshd.fingerprint }).waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText('The connection works', { exact: false }).waitFor();

    await sshd.changeHostKey();
    await card.getByRole('button', { name: 'Test connection' }).click();
    const stop = card.getByRole('alert').filter({ hasText: 'Stop:' });
    await stop.waitFor();
    assert.match(
      await stop.innerText(),
      /Stop: the server's host key has changed, so the service sent it nothing\..*Ask the bank, not through this connection, whether they changed their key/s,
    );
    assert.match(await stop.innerText(), new RegExp(`Shown now: ${sshd.fingerprint.replace(/[+/]/g, '\\$&')}`));
    const trustNew = stop.getByRole('button', { name: 'Trust the new key' });
    assert.equal(await trustNew.isDisabled(), true);
    assert.equal(await pageWidthOnAPhone(page), 390);
    await screenshotsAt(page, 'connections-host-key-changed', true);
  });
});
