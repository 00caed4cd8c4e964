import { useQuery } from '@tanstack/react-query';
import type { WebhookEndpoint } from '@ledger-recon/sdk';
import { useSecondaryRequestsAllowed, useSession } from './session.tsx';

/**
 * The organization's webhook endpoints as the banner of every page and the developer page read
 * them. Kept apart from the developer page's code so that every page can show the banner without
 * loading that page.
 */

export const ENDPOINTS_KEY = ['webhook-endpoints'];

/**
 * The endpoint list changes only when someone changes an endpoint on the developer page (which
 * reads it again) or when one is disabled after days of failures: read once when the app opens,
 * it is fresh enough for the banner, and costs one call.
 */
const ENDPOINTS_STALE_MILLISECONDS = 5 * 60_000;

/**
 * The organization's endpoints, read once and shared by the banner and the developer page. The
 * banner passes `secondary`: its read waits until the page opened first has what it shows first,
 * as a banner about days-old failures can come a moment later than the rows the person opened.
 */
export function useWebhookEndpoints({ secondary = false }: { secondary?: boolean } = {}) {
  const { session, recon } = useSession();
  const allowed = useSecondaryRequestsAllowed();
  return useQuery({
    queryKey: ENDPOINTS_KEY,
    queryFn: () => recon.webhookEndpoints.list(),
    enabled: session.user.role === 'Administrator' && (!secondary || allowed),
    staleTime: ENDPOINTS_STALE_MILLISECONDS,
  });
}

export function isDisabledForFailing(endpoint: WebhookEndpoint): boolean {
  return !endpoint.enabled && endpoint.disabledReason === 'failing';
}
