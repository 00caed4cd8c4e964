import { startTransition, useOptimistic } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A page's address (its filters and choices) and a change of one of its parameters. The router
 * shows a new address in a transition, drawn after the event that asked for it; fields, boxes and
 * radio buttons drawn from the address would spring back to what they were until then (a box
 * clicked stays unticked, a letter typed fast is lost). So the address the page draws from is the
 * one asked for, from the moment it is asked, until the router shows it.
 *
 * An empty value removes the parameter, except for those named in `keptWhenEmpty` (where choosing
 * "none" is a choice, not the default).
 */
export function useAddress(keptWhenEmpty: readonly string[] = []): [URLSearchParams, (name: string, value: string, replace: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const [shown, show] = useOptimistic(params);
  const setParam = (name: string, value: string, replace: boolean) => {
    const next = new URLSearchParams(shown);
    if (value === '' && !keptWhenEmpty.includes(name)) next.delete(name);
    else next.set(name, value);
    startTransition(() => {
      show(next);
      setParams(next, { replace });
    });
  };
  return [shown, setParam];
}
