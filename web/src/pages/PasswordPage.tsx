import { useState, type FormEvent } from 'react';
import { authRequest, messageOf } from '../session.tsx';

export function PasswordPage() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await authRequest('POST', '/auth/password', { currentPassword, newPassword });
      setCurrent('');
      setNew('');
      setMessage({ text: 'Password changed. Your other sessions have ended.', error: false });
    } catch (caught) {
      setMessage({ text: messageOf(caught), error: true });
    }
  }

  return (
    <section className="card narrow">
      <h1>Change your password</h1>
      <form onSubmit={submit}>
        <label>
          Current password
          <input type="password" autoComplete="current-password" required value={currentPassword} onChange={(event) => setCurrent(event.target.value)} />
        </label>
        <label>
          New password (at least 12 characters)
          <input type="password" autoComplete="new-password" required value={newPassword} onChange={(event) => setNew(event.target.value)} />
        </label>
        {message && (
          <p className={message.error ? 'error' : 'success'} role={message.error ? 'alert' : 'status'}>
            {message.text}
          </p>
        )}
        <button type="submit">Change password</button>
      </form>
    </section>
  );
}
