import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { Field, FormError } from '../components/FormField.tsx';
import { PASSWORD_LENGTH_MIN, showServerErrors } from '../forms.ts';
import { authRequest, messageOf, type Session } from '../session.tsx';

interface Acceptance {
  password: string;
  repeated: string;
}

export function InvitationPage() {
  const { secret = '' } = useParams();
  const invitation = useQuery({
    queryKey: ['invitation', secret],
    queryFn: () => authRequest<{ email: string; role: string; expiresAt: string }>('GET', `/auth/invitations/${encodeURIComponent(secret)}`),
    retry: false,
  });
  const client = useQueryClient();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Acceptance>({ defaultValues: { password: '', repeated: '' } });

  async function submit({ password }: Acceptance) {
    try {
      const session = await authRequest<Session>('POST', `/auth/invitations/${encodeURIComponent(secret)}/accept`, { password });
      client.setQueryData(['session'], session);
      navigate('/developer', { replace: true });
    } catch (caught) {
      showServerErrors(caught, setError, { password: 'Password' });
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
        <form onSubmit={handleSubmit(submit)} noValidate>
          <p>
            You are invited as <strong>{invitation.data.email}</strong> ({invitation.data.role}). Choose a password: at least {PASSWORD_LENGTH_MIN} characters;
            a few unrelated words make a good one.
          </p>
          <Field label="Password" error={errors.password}>
            {(aria) => (
              <input
                type="password"
                autoComplete="new-password"
                {...aria}
                {...register('password', {
                  required: 'Choose a password.',
                  minLength: {
                    value: PASSWORD_LENGTH_MIN,
                    message: `Password must have at least ${PASSWORD_LENGTH_MIN} characters; a few unrelated words make a good one.`,
                  },
                })}
              />
            )}
          </Field>
          <Field label="The same password again" error={errors.repeated}>
            {(aria) => (
              <input
                type="password"
                autoComplete="new-password"
                {...aria}
                {...register('repeated', {
                  required: 'Type the password again.',
                  validate: (repeated, values) => repeated === values.password || 'The two passwords differ; type the same one twice.',
                })}
              />
            )}
          </Field>
          <FormError error={errors.root?.server} />
          <button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Setting the password…' : 'Set the password and sign in'}
          </button>
        </form>
      )}
    </main>
  );
}
