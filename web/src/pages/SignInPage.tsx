import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Field, FormError } from '../components/FormField.tsx';
import { EMAIL_SHAPE, showServerErrors } from '../forms.ts';
import { authRequest, type Session } from '../session.tsx';

interface SignIn {
  email: string;
  password: string;
}

export function SignInPage() {
  const client = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignIn>({ defaultValues: { email: '', password: '' } });

  async function submit(values: SignIn) {
    try {
      // The session in the cache is enough: the sign-in route then sends the person where they were going.
      client.setQueryData(['session'], await authRequest<Session>('POST', '/auth/sign-in', values));
    } catch (caught) {
      showServerErrors(caught, setError, { email: 'Email', password: 'Password' });
    }
  }

  return (
    <main className="card narrow">
      <h1>Sign in to ledger-recon</h1>
      <form onSubmit={handleSubmit(submit)} noValidate>
        <Field label="Email" error={errors.email}>
          {(aria) => (
            <input
              type="email"
              autoComplete="username"
              {...aria}
              {...register('email', {
                required: 'Enter your email address.',
                validate: (value) => EMAIL_SHAPE.test(value.trim()) || 'Email must be an email address such as ana@example.com.',
              })}
            />
          )}
        </Field>
        <Field label="Password" error={errors.password}>
          {(aria) => <input type="password" autoComplete="current-password" {...aria} {...register('password', { required: 'Enter your password.' })} />}
        </Field>
        <FormError error={errors.root?.server} />
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="hint">No account? An Administrator of your organization sends you an invitation link.</p>
    </main>
  );
}
