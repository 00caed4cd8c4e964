import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field, FormError } from '../components/FormField.tsx';
import { PASSWORD_LENGTH_MIN, showServerErrors } from '../forms.ts';
import { authRequest } from '../session.tsx';

interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

export function PasswordPage() {
  const [changed, setChanged] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordChange>({ defaultValues: { currentPassword: '', newPassword: '' } });

  async function submit(values: PasswordChange) {
    setChanged(false);
    try {
      await authRequest('POST', '/auth/password', values);
      reset();
      setChanged(true);
    } catch (caught) {
      showServerErrors(caught, setError, { currentPassword: 'The password you typed', newPassword: 'New password' });
    }
  }

  return (
    <section className="card narrow">
      <h1>Change your password</h1>
      <form onSubmit={handleSubmit(submit)} noValidate>
        <Field label="Current password" error={errors.currentPassword}>
          {(aria) => (
            <input type="password" autoComplete="current-password" {...aria} {...register('currentPassword', { required: 'Enter your current password.' })} />
          )}
        </Field>
        <Field label={`New password (at least ${PASSWORD_LENGTH_MIN} characters)`} error={errors.newPassword}>
          {(aria) => (
            <input
              type="password"
              autoComplete="new-password"
              {...aria}
              {...register('newPassword', {
                required: 'Enter a new password.',
                minLength: {
                  value: PASSWORD_LENGTH_MIN,
                  message: `New password must have at least ${PASSWORD_LENGTH_MIN} characters; a few unrelated words make a good one.`,
                },
              })}
            />
          )}
        </Field>
        <FormError error={errors.root?.server} />
        {changed && (
          <p className="success" role="status">
            Password changed. Your other sessions have ended.
          </p>
        )}
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Changing the password…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
