import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { User } from '@ledger-recon/sdk';
import { CopyButton } from '../components/CopyButton.tsx';
import { Field, FormError } from '../components/FormField.tsx';
import { RoleField, RoleOptions, type Role } from '../components/RoleField.tsx';
import { EMAIL_SHAPE, showServerErrors } from '../forms.ts';
import { Moment } from '../components/When.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { useSession } from '../session.tsx';

interface Invitation {
  email: string;
  role: Role;
}

export function UsersPage() {
  const { session, recon } = useSession();
  const client = useQueryClient();
  const people = useQuery({ queryKey: ['users'], queryFn: () => recon.users.list(), enabled: session.user.role === 'Administrator' });
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['users'] });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Invitation>({ defaultValues: { email: '', role: 'Full member' } });
  const invite = useMutation({
    mutationFn: (invitation: Invitation) => recon.users.invite({ ...invitation, email: invitation.email.trim() }),
    onSuccess: (created, invitation) => {
      setLink({ email: created.invitation.email, url: created.invitationUrl });
      // The role chosen stays for the next person, who is often invited alike.
      reset({ email: '', role: invitation.role });
      void refresh();
    },
  });
  const update = useMutation({
    mutationFn: ({ user, change }: { user: User; change: { role?: Role; active?: boolean } }) => recon.users.update(user.id, change),
    onSuccess: () => void refresh(),
  });

  async function submit(invitation: Invitation) {
    setLink(null);
    try {
      await invite.mutateAsync(invitation);
    } catch (caught) {
      showServerErrors(caught, setError, { email: 'Email', role: 'Role' });
    }
  }

  const error = update.error ?? people.error;
  // Only Administrators manage people: anyone else who opens this screen is told so, with no
  // form they could not send.
  if (session.user.role !== 'Administrator')
    return (
      <section className="card">
        <h1>Users</h1>
        <p className="hint">Only Administrators invite people and change their roles. Ask one of them if someone needs access or another role.</p>
      </section>
    );
  return (
    <>
      <section className="card">
        <h1>Users</h1>
        <p className="hint">People sign in with their email and password. Invite someone with a link valid for 72 hours; they choose their password there.</p>
        <form className="inline" onSubmit={handleSubmit(submit)} noValidate aria-label="Invite someone">
          <Field label="Email" error={errors.email}>
            {(aria) => (
              <input
                type="email"
                {...aria}
                {...register('email', {
                  required: 'Enter the email address of the person to invite.',
                  validate: (value) => EMAIL_SHAPE.test(value.trim()) || 'Email must be an email address such as ana@example.com.',
                })}
              />
            )}
          </Field>
          <RoleField registration={register('role')} error={errors.role} />
          <button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Inviting…' : 'Invite'}
          </button>
          <FormError error={errors.root?.server} />
        </form>
        <ErrorMessage error={error} />
        {link && (
          <div className="reveal-inline" aria-live="polite">
            <p>
              <strong>Send this link to {link.email}</strong> (it is shown only once):
            </p>
            <p>
              <code>{link.url}</code> <CopyButton value={link.url} label="the invitation link" />
            </p>
          </div>
        )}
      </section>
      <section className="card">
        <h2>People</h2>
        {people.isPending && <p role="status">Loading…</p>}
        {people.data && (
          <table>
            <TableHead columns={['Email', 'Role', 'Status', 'Last sign-in']} actions />
            <tbody>
              {people.data.users.map((user) => (
                <tr key={user.id}>
                  <td>
                    {user.email}
                    {user.id === session.user.id && <span className="hint"> (you)</span>}
                  </td>
                  <td>
                    <select
                      aria-label={`Role of ${user.email}`}
                      value={user.role}
                      disabled={!user.active}
                      onChange={(event) => update.mutate({ user, change: { role: event.target.value as Role } })}
                    >
                      <RoleOptions />
                    </select>
                  </td>
                  <td>{user.active ? 'Active' : 'Deactivated'}</td>
                  <td>
                    <Moment value={user.lastLoginAt} />
                  </td>
                  <td>
                    {user.active ? (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => {
                          if (window.confirm(`Deactivate ${user.email}? They are signed out at once and cannot sign in.`))
                            update.mutate({ user, change: { active: false } });
                        }}
                      >
                        Deactivate
                      </button>
                    ) : (
                      <button type="button" className="secondary" onClick={() => update.mutate({ user, change: { active: true } })}>
                        Reactivate
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {people.data && people.data.invitations.length > 0 && (
          <>
            <h3>Open invitations</h3>
            <ul>
              {people.data.invitations.map((invitation) => (
                <li key={invitation.id}>
                  {invitation.email} ({invitation.role}), until <Moment value={invitation.expiresAt} />
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}
