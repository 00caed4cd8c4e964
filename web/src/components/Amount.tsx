import type { ComponentProps } from 'react';
import { formatAmount } from '../format.ts';

/**
 * An amount with its currency, right-aligned in figures of one width so that a column of them
 * lines up by digit. A negative amount is marked twice, by its minus sign and by its colour, so
 * that a debit is not read as a credit at a glance.
 */
export function Amount({ amount, currency, className, ...rest }: { amount: string; currency?: string | null } & Omit<ComponentProps<'span'>, 'children'>) {
  const negative = amount.trim().startsWith('-');
  return (
    <span className={['number', negative ? 'negative' : '', className ?? ''].filter(Boolean).join(' ')} {...rest}>
      {formatAmount(amount, currency)}
    </span>
  );
}
