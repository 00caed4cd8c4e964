import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ApiClient } from '@ledger-recon/sdk';
import { Field, FormError } from '../components/FormField.tsx';
import { RoleField, type Role } from '../components/RoleField.tsx';
import { showServerErrors } from '../forms.ts';
import { CopyField, SecretReveal } from '../components/SecretReveal.tsx';
import { Moment } from '../components/When.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { messageOf, useSession } from '../session.tsx';
import { WebhookEndpointsSection } from '../components/WebhookEndpointsSection.tsx';

/** The server's longest name of a client. */
const NAME_MAX_LENGTH = 200;

interface NewClient {
  name: string;
  role: Role;
}

/** What a new secret is shown with, once: the secret itself and a ready token request. */
interface RevealedSecret {
  clientId: string;
  clientSecret: string;
  what: string;
}

function curlOf(session: ReturnType<typeof useSession>['session'], secret: RevealedSecret): string {
  return [
    `TOKEN=$(curl -s -X POST ${session.tokenUrl} -H 'content-type: application/x-www-form-urlencoded' \\`,
    `  -d grant_type=client_credentials -d client_id=${secret.clientId} -d client_secret=${secret.clientSecret} \\`,
    `  -d audience=${session.audience} | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
    `curl -s ${session.apiBaseUrl}/sources -H "authorization: Bearer $TOKEN"`,
  ].join('\n');
}

export function DeveloperPage() {
  const { session, recon } = useSession();
  const isAdministrator = session.user.role === 'Administrator';
  const client = useQueryClient();
  const clients = useQuery({ queryKey: ['clients'], queryFn: () => recon.clients.list(), enabled: isAdministrator });
  const [revealed, setRevealed] = useState<RevealedSecret | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewClient>({ defaultValues: { name: '', role: 'View-only' } });
  const refresh = () => client.invalidateQueries({ queryKey: ['clients'] });

  const create = useMutation({
    mutationFn: (client: NewClient) => recon.clients.create({ ...client, name: client.name.trim() }),
    onSuccess: (created, client) => {
      setRevealed({ clientId: created.clientId, clientSecret: created.clientSecret, what: `API client "${created.name}" created` });
      reset({ name: '', role: client.role });
      void refresh();
    },
  });
  const addSecret = useMutation({
    mutationFn: (target: ApiClient) => recon.clients.createSecret(target.clientId),
    onSuccess: (created) => {
      setRevealed({ clientId: created.clientId, clientSecret: created.clientSecret, what: `A second secret for ${created.clientId}` });
      void refresh();
    },
  });
  const revoke = useMutation({ mutationFn: (target: ApiClient) => recon.clients.revoke(target.clientId), onSuccess: () => void refresh() });

  async function submit(client: NewClient) {
    try {
      await create.mutateAsync(client);
    } catch (caught) {
      showServerErrors(caught, setError, { name: 'Name', role: 'Role' });
    }
  }

  const mutationError = addSecret.error ?? revoke.error;
  return (
    <>
      <section className="card">
        <h1>Developer</h1>
        <p className="hint">
          Programs reach the API with a client id and secret: they ask the token URL for an access token (client credentials, with the audience below), then
          call the organization's API with it. <a href="/docs">API documentation</a>
        </p>
        <dl className="fields">
          <CopyField label="Organization id" value={session.organizationId} />
          <CopyField label="Token URL" value={session.tokenUrl} />
          <CopyField label="Audience" value={session.audience} />
          <CopyField label="API base URL" value={session.apiBaseUrl} />
        </dl>
      </section>

      {revealed && (
        <SecretReveal
          title={revealed.what}
          notice={
            <>
              <strong>Copy the secret now: it is shown only once.</strong> Lost it? Add another secret to the client and revoke this one.
            </>
          }
          fields={[
            { label: 'Client id', value: revealed.clientId },
            { label: 'Client secret', value: revealed.clientSecret },
          ]}
          snippetTitle="Try it"
          snippetLabel="the commands"
          snippet={curlOf(session, revealed)}
          onDismiss={() => setRevealed(null)}
        />
      )}

      <section className="card">
        <h2>API clients</h2>
        {!isAdministrator && <p className="hint">Only Administrators manage API clients. Ask one of them for credentials.</p>}
        {isAdministrator && (
          <>
            <form className="inline" onSubmit={handleSubmit(submit)} noValidate aria-label="New API client">
              <Field label="Name" error={errors.name}>
                {(aria) => (
                  <input
                    placeholder="e.g. ERP export"
                    {...aria}
                    {...register('name', {
                      validate: (value) => value.trim() !== '' || 'Give the client a name that says what uses it, e.g. ERP export.',
                      maxLength: { value: NAME_MAX_LENGTH, message: `Name must have at most ${NAME_MAX_LENGTH} characters.` },
                    })}
                  />
                )}
              </Field>
              <RoleField registration={register('role')} error={errors.role} />
              <button type="submit" disabled={isSubmitting}>
                {isSubmitting ? 'Creating the client…' : 'Create client'}
              </button>
              <FormError error={errors.root?.server} />
            </form>
            <ErrorMessage error={mutationError} />
            {clients.isPending && <p role="status">Loading the clients…</p>}
            {clients.isError && (
              <p className="error" role="alert">
                {messageOf(clients.error)}
              </p>
            )}
            {clients.data && clients.data.length === 0 && <p>No API clients yet.</p>}
            {clients.data && clients.data.length > 0 && (
              <table>
                <TableHead columns={['Name', 'Client id', 'Role', 'Created', 'Last used', 'Secrets']} actions />
                <tbody>
                  {clients.data.map((entry) => (
                    <tr key={entry.clientId}>
                      <td>{entry.name}</td>
                      <td>
                        <code>{entry.clientId}</code>
                      </td>
                      <td>{entry.role}</td>
                      <td>
                        <Moment value={entry.createdAt} />
                        <br />
                        <span className="hint">by {entry.createdBy}</span>
                      </td>
                      <td>{entry.lastUsedAt === null ? 'never' : <Moment value={entry.lastUsedAt} />}</td>
                      <td>{entry.secrets.map((secret) => `…${secret.hint}`).join(', ')}</td>
                      <td>
                        <div className="actions">
                          <button
                            type="button"
                            className="secondary"
                            disabled={entry.secrets.length >= 2 || addSecret.isPending}
                            onClick={() => addSecret.mutate(entry)}
                          >
                            Add a secret
                          </button>
                          <button
                            type="button"
                            className="danger"
                            onClick={() => {
                              if (window.confirm(`Revoke "${entry.name}"? Its secrets stop working at once.`)) revoke.mutate(entry);
                            }}
                          >
                            Revoke
                          </button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </section>

      <WebhookEndpointsSection />
    </>
  );
}
