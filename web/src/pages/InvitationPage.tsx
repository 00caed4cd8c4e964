import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { authRequest, messageOf, type Session } from '../session.tsx';

export function InvitationPage() {
  const { secret = '' } = useParams();
  const invitation = useQuery({
    queryKey: ['invitation', secret],
    queryFn: () => authRequest<{ email: string; role: string; expiresAt: string }>('GET', `/auth/invitations/${encodeURIComponent(secret)}`),
    retry: false,
  });
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [error, setError] = useState<string | null>(null);
  const client = useQueryClient();
  const navigate = useNavigate();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password !== repeated) return setError('The two passwords differ; type the same one twice.');
    setError(null);
    try {
      const session = await authRequest<Session>('POST', `/auth/invitations/${encodeURIComponent(secret)}/accept`, { password });
      client.setQueryData(['session'], session);
      navigate('/developer', { replace: true });
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <main className="card narrow">
      <h1>Join ledger-recon</h1>
      {invitation.isPending && <p role="status">Reading the invitation…</p>}
      {invitation.isError && (
        <p className="error" role="alert">
          {messageOf(invitation.error)}
        </p>
      )}
      {invitation.data && (
        <form onSubmit={submit}>
          <p>
            You are invited as <strong>{invitation.data.email}</strong> ({invitation.data.role}). Choose a password: at least 12 characters; a few unrelated words
            make a good one.
          </p>
          <label>
            Password
            <input type="password" autoComplete="new-password" required minLength={12} value={password} onChange={(event) => setPassword(event.target.value)} />
          </label>
          <label>
            The same password again
            <input type="password" autoComplete="new-password" required value={repeated} onChange={(event) => setRepeated(event.target.value)} />
          </label>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit">Set the password and sign in</button>
        </form>
      )}
    </main>
  );
}
