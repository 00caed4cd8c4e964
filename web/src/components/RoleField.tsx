import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from './FormField.tsx';

/** The roles of people and API clients, weakest first, as the API names them (a Reviewer reads, and approves closed periods). */
export const ROLES = ['View-only', 'Reviewer', 'Full member', 'Administrator'] as const;
export type Role = (typeof ROLES)[number];

/** The options of a role picker. */
export function RoleOptions() {
  return ROLES.map((option) => <option key={option}>{option}</option>);
}

/** A form's "Role" field, registered with the form, with its problem below it. */
export function RoleField({ registration, error }: { registration: UseFormRegisterReturn; error: { message?: string } | undefined }) {
  return (
    <Field label="Role" error={error}>
      {(aria) => (
        <select {...aria} {...registration}>
          <RoleOptions />
        </select>
      )}
    </Field>
  );
}
