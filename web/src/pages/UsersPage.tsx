import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { User } from '../../../sdk/src/index.ts';
import { CopyButton } from '../components/CopyButton.tsx';
import { formatDateTime } from '../format.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { messageOf, useSession } from '../session.tsx';

const ROLES = ['View-only', 'Full member', 'Administrator'] as const;
type Role = (typeof ROLES)[number];

export function UsersPage() {
  const { session, recon } = useSession();
  const client = useQueryClient();
  const people = useQuery({ queryKey: ['users'], queryFn: () => recon.users.list() });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('Full member');
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['users'] });
  const invite = useMutation({
    mutationFn: () => recon.users.invite({ email, role }),
    onSuccess: (created) => {
      setLink({ email: created.invitation.email, url: created.invitationUrl });
      setEmail('');
      void refresh();
    },
  });
  const update = useMutation({
    mutationFn: ({ user, change }: { user: User; change: { role?: Role; active?: boolean } }) => recon.users.update(user.id, change),
    onSuccess: () => void refresh(),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    invite.mutate();
  }

  const error = invite.error ?? update.error ?? people.error;
  return (
    <>
      <section className="card">
        <h1>Users</h1>
        <p className="hint">People sign in with their email and password. Invite someone with a link valid for 72 hours; they choose their password there.</p>
        <form className="inline" onSubmit={submit}>
          <label>
            Email
            <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
          </label>
          <label>
            Role
            <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {ROLES.map((option) => (
                <option key={option}>{option}</option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={invite.isPending}>
            Invite
          </button>
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
                      {ROLES.map((option) => (
                        <option key={option}>{option}</option>
                      ))}
                    </select>
                  </td>
                  <td>{user.active ? 'Active' : 'Deactivated'}</td>
                  <td>{formatDateTime(user.lastLoginAt)}</td>
                  <td>
                    {user.active ? (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => {
                          if (window.confirm(`Deactivate ${user.email}? They are signed out at once and cannot sign in.`)) update.mutate({ user, change: { active: false } });
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
                  {invitation.email} ({invitation.role}), until {formatDateTime(invitation.expiresAt)}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}
