import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '../../db/database.ts';
import { findOrganizationName, listDigestRecipients, markOverdue, recordDigest, type DigestItem } from '../../db/repositories/exceptions.ts';
import { listOrganizationIds } from '../../db/repositories/organizations.ts';
import { JobInterrupted, type JobQueue } from '../jobs/job-queue.ts';
import { systemClock, type Clock } from '../clock.ts';
import { dayOf } from './exceptions.ts';

/**
 * The daily digest of the exceptions queue: at most one e-mail per person per day, listing the
 * exceptions given to them since their last digest and those past their due date, in sentences
 * (no ids), with a link to the web app. It is a recurring job of the job queue, like the
 * retention sweep: one process of all those sharing the database runs it each time.
 *
 * Each run also marks exceptions that have become overdue, once per due date, which emits
 * `exception.overdue` events (webhooks) whether or not e-mail is configured. Without SMTP_URL no
 * mail is sent and no digest is recorded.
 */

export const EXCEPTION_DIGEST_JOB = 'exception-digest';

/** How often the digest job looks for people to tell; each person gets one message a day at most. */
export const EXCEPTION_DIGEST_INTERVAL_SECONDS = 3600;

const ORGANIZATIONS_PER_PAGE = 1000;

export interface DigestSettings {
  /** smtp://user:password@host:port or smtps://…; null: no e-mail. */
  smtpUrl: string | null;
  /** The sender of the messages. */
  mailFrom: string;
  /** The web app's address, for the link in the message. */
  publicUrl: string;
}

export interface DigestRunResult {
  overdueMarked: number;
  digestsSent: number;
}

/** One exception in a sentence, as the bank or ledger wrote it. */
export function digestSentence(item: DigestItem): string {
  const what = item.description ? `“${item.description}”` : 'an entry without description';
  const reference = item.reference ? ` (reference ${item.reference})` : '';
  const amount = item.amount === null ? '' : ` of ${item.amount}${item.currency ? ` ${item.currency}` : ''}`;
  const due =
    item.kind === 'overdue' ? `, was due by ${item.dueDate}` : item.dueDate ? `, due by ${item.dueDate}` : '';
  const hold = item.holdReason ? `; on hold: ${item.holdReason}` : '';
  return `On ${item.date}, ${what}${reference}${amount} in ${item.datasetName}${due}${hold}.`;
}

export function digestMessage(organizationName: string, items: readonly DigestItem[], link: string): { subject: string; text: string } {
  const assigned = items.filter((item) => item.kind === 'assigned');
  const overdue = items.filter((item) => item.kind === 'overdue');
  const counts = [
    assigned.length > 0 ? `${assigned.length} newly assigned` : null,
    overdue.length > 0 ? `${overdue.length} overdue` : null,
  ].filter((part) => part !== null);
  const lines = [`Hello,`, '', `These exceptions of ${organizationName} are yours to follow up.`];
  if (assigned.length > 0) lines.push('', 'Newly assigned to you:', ...assigned.map((item) => `- ${digestSentence(item)}`));
  if (overdue.length > 0) lines.push('', 'Past their due date:', ...overdue.map((item) => `- ${digestSentence(item)}`));
  lines.push('', `Open the exceptions queue: ${link}`, '', 'You receive at most one such message a day.');
  return { subject: `Exceptions to follow up in ${organizationName}: ${counts.join(', ')}`, text: lines.join('\n') };
}

export class ExceptionDigest {
  #transport: Transporter | null = null;

  constructor(
    private readonly database: Database,
    private readonly settings: DigestSettings,
    private readonly clock: Clock = systemClock,
    queue?: JobQueue,
  ) {
    queue?.registerRecurring(EXCEPTION_DIGEST_JOB, (_job, context) => this.run({ signal: context.signal }).then(() => {}), {
      intervalSeconds: EXCEPTION_DIGEST_INTERVAL_SECONDS,
    });
  }

  /** Whether e-mail is configured. */
  get mailEnabled(): boolean {
    return this.settings.smtpUrl !== null;
  }

  #transportOf(): Transporter | null {
    if (this.settings.smtpUrl === null) return null;
    this.#transport ??= nodemailer.createTransport(this.settings.smtpUrl);
    return this.#transport;
  }

  /** Marks what became overdue and sends the digests of the day not yet sent, organization by organization. */
  async run(options: { signal?: AbortSignal } = {}): Promise<DigestRunResult> {
    const today = dayOf(this.clock.now());
    const result: DigestRunResult = { overdueMarked: 0, digestsSent: 0 };
    let afterId: string | null = null;
    for (;;) {
      const organizationIds = await listOrganizationIds(this.database, afterId, ORGANIZATIONS_PER_PAGE);
      for (const organizationId of organizationIds) {
        if (options.signal?.aborted) throw new JobInterrupted('the exception digest was stopped');
        const one = await this.runOrganization(organizationId, today);
        result.overdueMarked += one.overdueMarked;
        result.digestsSent += one.digestsSent;
      }
      if (organizationIds.length < ORGANIZATIONS_PER_PAGE) return result;
      afterId = organizationIds.at(-1)!;
    }
  }

  async runOrganization(organizationId: string, today: string): Promise<DigestRunResult> {
    const overdueMarked = await this.database.transaction((transaction) => markOverdue(transaction, organizationId, today));
    const transport = this.#transportOf();
    if (transport === null) return { overdueMarked, digestsSent: 0 };
    const recipients = await listDigestRecipients(this.database, organizationId, today);
    if (recipients.length === 0) return { overdueMarked, digestsSent: 0 };
    const organizationName = (await findOrganizationName(this.database, organizationId)) ?? 'your organization';
    const link = `${this.settings.publicUrl}/close`;
    let digestsSent = 0;
    for (const recipient of recipients) {
      // The digest is recorded in the transaction that sends it: a failed send records nothing,
      // and the next run tries again; a digest recorded by another process is not sent twice.
      const sent = await this.database.transaction(async (transaction) => {
        if (!(await recordDigest(transaction, organizationId, recipient.userId, today, recipient.items.length))) return false;
        const message = digestMessage(organizationName, recipient.items, link);
        await transport.sendMail({ from: this.settings.mailFrom, to: recipient.email, subject: message.subject, text: message.text });
        return true;
      });
      if (sent) digestsSent++;
    }
    return { overdueMarked, digestsSent };
  }
}
