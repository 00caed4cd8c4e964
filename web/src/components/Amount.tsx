import type { ComponentProps } from 'react';
import { formatAmount } from '../format.ts';

/**
 * An amount with its currency. A negative amount is marked twice, by its minus sign and by its
 * colour, so that a debit is not read as a credit at a glance. In a column, the class "number"
 * (on the amount or on its cell) right-aligns it in figures of one width, so that the column
 * lines up by digit.
 */
export function Amount({ amount, currency, className, ...rest }: { amount: string; currency?: string | null } & Omit<ComponentProps<'span'>, 'children'>) {
  const negative = amount.trim().startsWith('-');
  return (
    <span className={[negative ? 'negative' : '', className ?? ''].filter(Boolean).join(' ') || undefined} {...rest}>
      {formatAmount(amount, currency)}
    </span>
  );
}
