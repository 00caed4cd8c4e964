import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'react-router';
import { type EventType, type WebhookDelivery, type WebhookEndpoint } from '@ledger-recon/sdk';
import { ErrorMessage } from './ErrorMessage.tsx';
import { Field, FieldError, FormError, useFieldAria } from './FormField.tsx';
import { showServerErrors } from '../forms.ts';
import { SecretReveal } from './SecretReveal.tsx';
import { TableHead } from './TableHead.tsx';
import { formatCount, formatDateTimeSeconds } from '../format.ts';
import { Moment } from './When.tsx';
import { useSession } from '../session.tsx';
import { ENDPOINTS_KEY, isDisabledForFailing, useWebhookEndpoints } from '../webhook-endpoints.ts';

/**
 * Webhook endpoints on the developer page (SPEC §11): the endpoints with their state, their
 * deliveries and attempts, and the writes an Administrator makes, all through the SDK.
 */

const DELIVERIES_PAGE_SIZE = 10;
/** How often the deliveries are read again while one is pending: soon after its next attempt, within these bounds. */
const DELIVERY_POLL_MIN_MILLISECONDS = 1_500;
const DELIVERY_POLL_MAX_MILLISECONDS = 60_000;
/**
 * Up to this many endpoints, each shows its deliveries at once; more would read that many lists on
 * every visit, so beyond it only an endpoint disabled for failing does, as its errors are what to look at.
 */
const DELIVERIES_OPEN_UP_TO = 3;

/** What each event type means; typed by the API's list, so that a type the API adds is missed here at compile time. */
const EVENT_TYPE_MEANINGS: Record<EventType, string> = {
  'transaction.status_changed': "a transaction's status changed",
  'match_group.created': 'transactions were matched',
  'match_group.deleted': 'a match was undone',
  'suggestion.created': 'a rule proposed a match to decide',
  'run.completed': 'a rule run completed',
  'run.failed': 'a rule run failed',
  'run.reverted': 'a committed run was reverted',
  'import.completed': 'a file was imported',
  'import.failed': 'an import failed',
  'import.undone': 'an import was undone',
  'reconciliation.created': 'a reconciliation was created',
  'reconciliation.updated': 'a reconciliation was changed or archived',
  'close_period.prepared': 'a period was prepared for sign-off',
  'close_period.approved': 'a period was approved and closed',
  'close_period.reopened': 'a closed period was reopened',
  'exception.assigned': 'an exception was assigned to someone',
  'exception.updated': "an exception's due date or hold changed",
  'exception.commented': 'an exception was commented on',
  'exception.resolved': 'an exception was resolved by a note',
  'exception.reopened': 'an exception was reopened',
  'exception.overdue': 'an exception passed its due date',
  'journal_entry.proposed': 'a prepared period proposed a journal entry for its adjustments',
  'connection.failed': 'a connection to a bank server or folder failed',
  'pickup.completed': 'a pickup of files from a connection ended',
};
const EVENT_TYPES = Object.keys(EVENT_TYPE_MEANINGS) as EventType[];

/** A receiver's check of a message; kept short, with the library the specification publishes. */
const VERIFY_SNIPPET = `// npm install standardwebhooks
import { Webhook } from 'standardwebhooks';

// The signing secret (whsec_…), kept out of the code, e.g. in the environment.
const webhook = new Webhook(process.env.WEBHOOK_SECRET);

// body: the request body exactly as received, as a string (not parsed JSON).
// Throws unless a signature matches and webhook-timestamp is within 5 minutes.
const message = webhook.verify(body, request.headers);
// message.type, message.data. A retry has the same webhook-id header: skip ids already handled.`;

/** A secret on show, once: the endpoint's first one or a rotated one. */
interface RevealedSecret {
  title: string;
  secret: string;
  notice: ReactNode;
}

export function WebhookEndpointsSection() {
  const { session } = useSession();
  const headingId = useId();
  if (session.user.role !== 'Administrator') {
    return (
      <section className="card" aria-labelledby={headingId}>
        <h2 id={headingId}>Webhook endpoints</h2>
        <p className="hint">
          Only Administrators manage webhook endpoints. Programs can also read the same events from the API (GET /events, in the SDK{' '}
          <code>recon.events.list()</code>).
        </p>
      </section>
    );
  }
  return <AdministratorWebhooks headingId={headingId} />;
}

function AdministratorWebhooks({ headingId }: { headingId: string }) {
  const endpoints = useWebhookEndpoints();
  const [revealed, setRevealed] = useState<RevealedSecret | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  // The banner links here: bring the section into view (and the focus, for the keyboard) once it is
  // drawn, once per visit; a list read again later must not pull the page back here.
  const broughtIntoView = useRef<string | null>(null);
  useEffect(() => {
    if (location.hash !== '#webhooks' || !endpoints.data || broughtIntoView.current === location.key) return;
    broughtIntoView.current = location.key;
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [location.hash, location.key, endpoints.data]);

  const list = endpoints.data ?? [];
  return (
    <>
      {revealed && (
        <SecretReveal
          title={revealed.title}
          notice={revealed.notice}
          fields={[{ label: 'Signing secret', value: revealed.secret }]}
          snippetTitle="Verify a message (Node.js)"
          snippetLabel="the verification code"
          snippet={VERIFY_SNIPPET}
          onDismiss={() => setRevealed(null)}
        />
      )}
      <section className="card" id="webhooks" aria-labelledby={headingId}>
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          Webhook endpoints
        </h2>
        <p className="hint">
          Each event of the chosen types is POSTed to your URL as a signed Standard Webhooks message, at least once. A delivery that fails is retried with
          backoff for days (3 by default); if every attempt fails that long, the endpoint is disabled and Administrators are told when they open the app.
        </p>
        {endpoints.isPending && (
          <p role="status" className="placeholder">
            Loading the endpoints…
          </p>
        )}
        <ErrorMessage error={endpoints.error} />
        {endpoints.data && list.length === 0 && (
          <p className="empty">
            No webhook endpoints yet. Add the URL of your receiver below, then send it a test message to check that it verifies the signature.
          </p>
        )}
        {list.length > 0 && (
          <ul className="endpoints">
            {list.map((endpoint) => (
              <EndpointItem
                key={endpoint.id}
                endpoint={endpoint}
                deliveriesOpen={list.length <= DELIVERIES_OPEN_UP_TO || isDisabledForFailing(endpoint)}
                onRotated={(secret, previousSecretExpiresAt) =>
                  setRevealed({
                    title: `New signing secret for ${endpoint.url}`,
                    secret,
                    notice: (
                      <>
                        <strong>Copy the new secret now: it is shown only once.</strong> The old secret keeps working for 24 hours, until{' '}
                        <Moment value={previousSecretExpiresAt} />: until then every message is signed with both, so switch the receiver to the new one at any
                        moment before that.
                      </>
                    ),
                  })
                }
              />
            ))}
          </ul>
        )}
        <NewEndpointForm
          onCreated={(created) =>
            setRevealed({
              title: `Webhook endpoint created for ${created.url}`,
              secret: created.secret,
              notice: (
                <>
                  <strong>Copy the signing secret now: it is shown only once.</strong> Your receiver checks every message with it, as below. Lost it? Rotate the
                  secret.
                </>
              ),
            })
          }
        />
      </section>
    </>
  );
}

function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) return <span className="status status-enabled">Enabled</span>;
  if (isDisabledForFailing(endpoint)) return <span className="status status-failing">Disabled after failing</span>;
  return <span className="status status-disabled">Disabled</span>;
}

function EventTypesOf({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.eventTypes.length === 0) return <>All events</>;
  return (
    <>
      {endpoint.eventTypes.map((type, index) => (
        <Fragment key={type}>
          {index > 0 && ', '}
          <code>{type}</code>
        </Fragment>
      ))}
    </>
  );
}

function EndpointItem({
  endpoint,
  deliveriesOpen,
  onRotated,
}: {
  endpoint: WebhookEndpoint;
  deliveriesOpen: boolean;
  onRotated: (secret: string, previousSecretExpiresAt: string) => void;
}) {
  const { recon } = useSession();
  const client = useQueryClient();
  const [showDeliveries, setShowDeliveries] = useState(deliveriesOpen);
  const deliveriesId = useId();
  const titleId = useId();
  const refreshEndpoints = () => client.invalidateQueries({ queryKey: ENDPOINTS_KEY });
  const refreshDeliveries = () => client.invalidateQueries({ queryKey: ['webhook-deliveries', endpoint.id] });

  const sendTest = useMutation({
    mutationFn: () => recon.webhookEndpoints.sendTest(endpoint.id),
    onSuccess: () => {
      setShowDeliveries(true);
      void refreshDeliveries();
    },
  });
  const setEnabled = useMutation({
    mutationFn: (enabled: boolean) => recon.webhookEndpoints.update(endpoint.id, { enabled }),
    onSuccess: () => void refreshEndpoints(),
  });
  const rotate = useMutation({
    mutationFn: () => recon.webhookEndpoints.rotateSecret(endpoint.id),
    onSuccess: (rotated) => {
      onRotated(rotated.secret, rotated.previousSecretExpiresAt);
      void refreshEndpoints();
    },
  });
  const remove = useMutation({ mutationFn: () => recon.webhookEndpoints.delete(endpoint.id), onSuccess: () => void refreshEndpoints() });
  const failing = isDisabledForFailing(endpoint);
  const previousSecretValid = endpoint.previousSecretExpiresAt !== null && Date.parse(endpoint.previousSecretExpiresAt) > Date.now();

  return (
    <li>
      <article className={failing ? 'endpoint endpoint-failing' : 'endpoint'} aria-labelledby={titleId}>
        <div className="endpoint-head">
          <h3 id={titleId} className="endpoint-url">
            {endpoint.url}
          </h3>
          <EndpointStatus endpoint={endpoint} />
        </div>
        <dl className="endpoint-facts">
          <div>
            <dt>Description</dt>
            <dd>{endpoint.description || <span className="hint">none</span>}</dd>
          </div>
          <div>
            <dt>Events</dt>
            <dd>
              <EventTypesOf endpoint={endpoint} />
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <Moment value={endpoint.createdAt} /> <span className="hint">by {endpoint.createdBy}</span>
            </dd>
          </div>
        </dl>
        {failing && (
          <div className="notice-danger">
            <p>
              <strong>Disabled after failing.</strong> Every delivery failed from <Moment value={endpoint.failingSince ?? endpoint.disabledAt} /> until it was
              disabled on <Moment value={endpoint.disabledAt} />; no events have been sent to it since.
            </p>
            <p>
              To turn it back on, fix the receiver (the last error of each delivery is below), then enable it: new events are sent again, and Redeliver sends
              one that failed.
            </p>
            <button type="button" onClick={() => setEnabled.mutate(true)} disabled={setEnabled.isPending}>
              Enable again
            </button>
          </div>
        )}
        {endpoint.enabled && endpoint.failingSince !== null && (
          <p className="warning">
            Failing since <Moment value={endpoint.failingSince} />: every attempt since then has failed. It is disabled if this goes on for the give-up period
            (3 days by default).
          </p>
        )}
        {previousSecretValid && (
          <p className="hint">
            The previous signing secret also signs until <Moment value={endpoint.previousSecretExpiresAt} />.
          </p>
        )}
        <div className="buttons">
          {endpoint.enabled && (
            <button type="button" className="secondary" onClick={() => sendTest.mutate()} disabled={sendTest.isPending}>
              Send test message
            </button>
          )}
          {endpoint.enabled ? (
            <button type="button" className="secondary" onClick={() => setEnabled.mutate(false)} disabled={setEnabled.isPending}>
              Disable
            </button>
          ) : (
            !failing && (
              <button type="button" className="secondary" onClick={() => setEnabled.mutate(true)} disabled={setEnabled.isPending}>
                Enable
              </button>
            )
          )}
          <button type="button" className="secondary" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
            Rotate secret
          </button>
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => {
              if (
                window.confirm(`Delete the webhook endpoint ${endpoint.url}? Its delivery history goes with it, and messages not yet delivered are not sent.`)
              )
                remove.mutate();
            }}
          >
            Delete
          </button>
          <button
            type="button"
            className="secondary"
            aria-expanded={showDeliveries}
            aria-controls={deliveriesId}
            onClick={() => setShowDeliveries(!showDeliveries)}
          >
            {showDeliveries ? 'Hide deliveries' : 'Show deliveries'}
          </button>
        </div>
        <ErrorMessage error={sendTest.error ?? setEnabled.error ?? rotate.error ?? remove.error} />
        <div id={deliveriesId}>{showDeliveries && <Deliveries endpoint={endpoint} />}</div>
      </article>
    </li>
  );
}

/** Whether an attempt's error says more than its HTTP status, which is shown beside it already. */
function errorBeyondStatus(error: string | null, responseStatus: number | null): boolean {
  return error !== null && error !== `the receiver answered ${responseStatus}`;
}

function DeliveryStatus({ delivery }: { delivery: WebhookDelivery }) {
  const labels = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' } as const;
  return <span className={`status status-${delivery.status}`}>{labels[delivery.status]}</span>;
}

/**
 * When to read the deliveries again: after the next attempt of a pending one (a retry may be hours
 * away, and a page left open should not ask every second until then); never when none is pending.
 */
function pollDelay(deliveries: WebhookDelivery[]): number | false {
  const nextAttempts = deliveries
    .filter((delivery) => delivery.status === 'pending')
    .map((delivery) => (delivery.nextAttemptAt === null ? 0 : Date.parse(delivery.nextAttemptAt) - Date.now()));
  if (nextAttempts.length === 0) return false;
  return Math.min(DELIVERY_POLL_MAX_MILLISECONDS, Math.max(DELIVERY_POLL_MIN_MILLISECONDS, Math.min(...nextAttempts) + DELIVERY_POLL_MIN_MILLISECONDS));
}

/** The endpoint's deliveries, newest first, a page at a time; read again while one is pending. */
function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { recon } = useSession();
  const client = useQueryClient();
  const [opened, setOpened] = useState<string | null>(null);
  const deliveries = useInfiniteQuery({
    queryKey: ['webhook-deliveries', endpoint.id],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      recon.webhookEndpoints.deliveriesPage(endpoint.id, { limit: DELIVERIES_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchInterval: (query) => pollDelay(query.state.data?.pages.flatMap((page) => page.deliveries) ?? []),
  });
  const redeliver = useMutation({
    mutationFn: (delivery: WebhookDelivery) => recon.webhookEndpoints.redeliver(endpoint.id, delivery.id),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['webhook-deliveries', endpoint.id] }),
  });
  const rows = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];

  if (deliveries.isPending) {
    return (
      <p role="status" className="placeholder">
        Loading the deliveries…
      </p>
    );
  }
  if (deliveries.isError) return <ErrorMessage error={deliveries.error} />;
  if (rows.length === 0) {
    return (
      <p className="empty">
        {endpoint.enabled
          ? 'No deliveries yet. Send a test message to check the receiver; events are delivered here as they happen.'
          : 'No deliveries yet. Enable the endpoint, then send a test message to check the receiver.'}
      </p>
    );
  }
  return (
    <div className="table-scroll">
      <table aria-label={`Deliveries to ${endpoint.url}`}>
        <TableHead columns={['Time', 'Event type', 'Status', '#Attempts', 'Response', '#Duration', 'Next attempt']} actions />
        <tbody>
          {rows.map((delivery) => (
            <Fragment key={delivery.id}>
              <tr>
                <td className="nowrap">
                  <Moment value={delivery.createdAt} seconds />
                </td>
                <td>
                  <code>{delivery.eventType}</code>
                </td>
                <td>
                  <DeliveryStatus delivery={delivery} />
                </td>
                <td className="number">{formatCount(delivery.attempts)}</td>
                <td>
                  {delivery.lastResponseStatus ?? (delivery.attempts === 0 ? '—' : 'no answer')}
                  {errorBeyondStatus(delivery.lastError, delivery.lastResponseStatus) && <div className="hint delivery-error">{delivery.lastError}</div>}
                </td>
                <td className="number">{delivery.lastDurationMilliseconds === null ? '—' : `${formatCount(delivery.lastDurationMilliseconds)} ms`}</td>
                <td>{delivery.status === 'pending' ? <Moment value={delivery.nextAttemptAt} seconds /> : '—'}</td>
                <td>
                  <div className="actions">
                    <button
                      type="button"
                      className="secondary small"
                      aria-expanded={opened === delivery.id}
                      aria-label={`Attempts of the ${delivery.eventType} delivery of ${formatDateTimeSeconds(delivery.createdAt)}`}
                      disabled={delivery.attempts === 0}
                      onClick={() => setOpened(opened === delivery.id ? null : delivery.id)}
                    >
                      Attempts
                    </button>
                    <button
                      type="button"
                      className="secondary small"
                      aria-label={`Redeliver the ${delivery.eventType} delivery of ${formatDateTimeSeconds(delivery.createdAt)}`}
                      disabled={delivery.status === 'pending' || !endpoint.enabled || redeliver.isPending}
                      onClick={() => redeliver.mutate(delivery)}
                    >
                      Redeliver
                    </button>
                  </div>
                </td>
              </tr>
              {opened === delivery.id && (
                <tr className="attempts-row">
                  <td colSpan={8}>
                    <Attempts endpointId={endpoint.id} delivery={delivery} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
      <ErrorMessage error={redeliver.error} />
      {deliveries.hasNextPage && (
        <button type="button" className="secondary" disabled={deliveries.isFetchingNextPage} onClick={() => void deliveries.fetchNextPage()}>
          Show older deliveries
        </button>
      )}
    </div>
  );
}

/** One delivery's attempts, oldest first; read again when it has made another. */
function Attempts({ endpointId, delivery }: { endpointId: string; delivery: WebhookDelivery }) {
  const { recon } = useSession();
  const detail = useQuery({
    queryKey: ['webhook-delivery', endpointId, delivery.id, delivery.attempts],
    queryFn: () => recon.webhookEndpoints.delivery(endpointId, delivery.id),
  });
  if (detail.isPending) return <p role="status">Loading the attempts…</p>;
  if (detail.isError) return <ErrorMessage error={detail.error} />;
  return (
    <ol className="history" aria-label={`Attempts of the ${delivery.eventType} delivery`}>
      {detail.data.attemptList.map((attempt) => (
        <li key={attempt.attemptedAt}>
          <Moment value={attempt.attemptedAt} seconds />: {attempt.responseStatus === null ? 'no answer' : `answered ${attempt.responseStatus}`} in{' '}
          {formatCount(attempt.durationMilliseconds)} ms{errorBeyondStatus(attempt.error, attempt.responseStatus) ? ` — ${attempt.error}` : ''}
        </li>
      ))}
    </ol>
  );
}

/** The server's longest description of an endpoint. */
const DESCRIPTION_MAX_LENGTH = 200;
const URL_EXAMPLE = 'https://erp.example.com/webhooks/ledger-recon';

interface NewEndpoint {
  url: string;
  description: string;
  eventTypes: EventType[];
}

/**
 * Whether a target looks like a URL a receiver can have; the server checks the rest (https in
 * production, a public host), and its answer is shown next to the field the same way.
 */
function urlShapeProblem(value: string): string | true {
  const trimmed = value.trim();
  if (trimmed === '') return `Enter the URL of your receiver, e.g. ${URL_EXAMPLE}.`;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return `Endpoint URL is not an absolute URL; give the full address of your receiver, e.g. ${URL_EXAMPLE}.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `Endpoint URL must start with https://, not ${url.protocol}; e.g. ${URL_EXAMPLE}.`;
  return true;
}

function NewEndpointForm({ onCreated }: { onCreated: (created: { url: string; secret: string }) => void }) {
  const { recon } = useSession();
  const client = useQueryClient();
  const headingId = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewEndpoint>({ defaultValues: { url: '', description: '', eventTypes: [] } });
  const types = useFieldAria(errors.eventTypes);

  async function submit(values: NewEndpoint) {
    try {
      const created = await recon.webhookEndpoints.create({ ...values, url: values.url.trim() });
      onCreated(created);
      reset();
      void client.invalidateQueries({ queryKey: ENDPOINTS_KEY });
    } catch (caught) {
      showServerErrors(caught, setError, { url: 'Endpoint URL', description: 'Description', eventTypes: 'Event types' });
    }
  }

  return (
    <form className="endpoint-form" onSubmit={handleSubmit(submit)} noValidate aria-labelledby={headingId}>
      <h3 id={headingId}>Add an endpoint</h3>
      <Field label="Endpoint URL" error={errors.url}>
        {(aria) => <input className="wide" type="url" placeholder={URL_EXAMPLE} {...aria} {...register('url', { validate: urlShapeProblem })} />}
      </Field>
      <Field label="Description" error={errors.description}>
        {(aria) => (
          <input
            className="wide"
            placeholder="e.g. ERP sync"
            {...aria}
            {...register('description', {
              maxLength: { value: DESCRIPTION_MAX_LENGTH, message: `Description must have at most ${DESCRIPTION_MAX_LENGTH} characters.` },
            })}
          />
        )}
      </Field>
      <div className="form-field">
        <fieldset aria-describedby={types.aria['aria-describedby']}>
          <legend>Event types</legend>
          <p className="hint">None chosen: every event, including types added later.</p>
          <div className="event-types">
            {EVENT_TYPES.map((type) => (
              <label className="chip" key={type}>
                <input type="checkbox" value={type} {...register('eventTypes')} />
                <span>
                  <code>{type}</code> <span className="hint">{EVENT_TYPE_MEANINGS[type]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <FieldError id={types.errorId} error={errors.eventTypes} />
      </div>
      <div className="buttons">
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Creating the endpoint…' : 'Create endpoint'}
        </button>
      </div>
      <FormError error={errors.root?.server} />
    </form>
  );
}
