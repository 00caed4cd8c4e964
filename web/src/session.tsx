import { QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { errorFromResponse, LedgerRecon, LedgerReconError, sessionAccessToken } from '@ledger-recon/sdk';
import { startupSessionResponse, startupTokenResponse } from './startup-requests.ts';

/**
 * The signed-in person, and the SDK client that acts for them: every call of the app goes
 * through the SDK with short-lived tokens from the session (SPEC §9), never with the cookie.
 */

export interface Session {
  organizationId: string;
  user: { id: string; email: string; role: 'Administrator' | 'Full member' | 'View-only' | 'Reviewer' };
  expiresAt: string;
  tokenUrl: string;
  audience: string;
  apiBaseUrl: string;
}

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: (count, error) => !(error instanceof LedgerReconError && error.code < 500) && count < 2, refetchOnWindowFocus: false } },
});

/** The /auth operations take the session cookie; the browser sends it (same origin). */
export async function authRequest<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readAuthResponse<T>(method, path, response);
}

async function readAuthResponse<T>(method: 'GET' | 'POST', path: string, sent: Promise<Response>): Promise<T> {
  const response = await sent;
  const text = await response.text();
  // The /auth answers use the API's error envelope: the SDK reads it the same way for both.
  if (!response.ok) throw errorFromResponse(method, path, response, text);
  const parsed = text ? JSON.parse(text) : undefined;
  return parsed as T;
}

const SessionContext = createContext<{ session: Session; recon: LedgerRecon } | null>(null);

/**
 * The session is asked for as the app starts, as the first token is (below), rather than once
 * React has drawn the app: both are under way while the app's code still loads and runs
 * (startup-requests.ts sends them).
 */
let startupSession: Promise<Session> | null = readAuthResponse<Session>('GET', '/auth/session', startupSessionResponse);
startupSession.catch(() => {});

/**
 * The first access token is asked for as the app starts, beside the session itself, rather than
 * after it: the first page of data then waits for one round trip less. Without a session it is
 * refused, and the next one is asked for as usual.
 */
let startupToken: Promise<{ accessToken: string; expiresInSeconds: number }> | null = sessionAccessToken(window.location.origin, () => startupTokenResponse)();
startupToken.catch(() => {});
const firstToken = startupToken;

function sessionTokens() {
  const fromSession = sessionAccessToken(window.location.origin);
  return async () => {
    const early = startupToken;
    startupToken = null;
    if (early !== null) {
      try {
        return await early;
      } catch {
        // Asked before signing in: ask again now.
      }
    }
    return fromSession();
  };
}

/**
 * The SDK client of the signed-in person: one per session, shared by the pages and the requests
 * started before them. The first one is made as the app starts, before the session is known
 * (`key` null): its calls take the organization from the token, which names it, so that the page
 * opened first can ask for its data as soon as the first token arrives, without waiting for the
 * session too. That token is the session's the app started with, so the client becomes that
 * session's when it arrives.
 */
let currentClient: { key: string | null; recon: LedgerRecon } | null = {
  key: null,
  recon: new LedgerRecon({ baseUrl: window.location.origin, getAccessToken: sessionTokens() }),
};
const startupClient = currentClient;

export function reconOf(session: Session): LedgerRecon {
  const key = `${session.organizationId} ${session.user.id}`;
  if (currentClient !== null && currentClient.key === null) currentClient.key = key;
  if (currentClient?.key !== key)
    currentClient = { key, recon: new LedgerRecon({ baseUrl: window.location.origin, orgId: session.organizationId, getAccessToken: sessionTokens() }) };
  return currentClient.recon;
}

/**
 * Calls `start` with the client of the session the app starts in as soon as its first access
 * token has arrived; never without a session (the token is refused then) or once someone signed
 * out. Answers what `start` answers, or nothing then.
 */
export function withFirstToken<T>(start: (recon: LedgerRecon) => T): Promise<T | undefined> {
  return firstToken.then(
    () => (currentClient === startupClient ? start(startupClient.recon) : undefined),
    () => undefined,
  );
}

/**
 * The session. The app is drawn once the first token is here too, and so the requests started
 * with it (withFirstToken) are on their way: drawing it holds the browser's main thread for tens
 * of milliseconds, and a token arriving meanwhile would wait for the drawing before those
 * requests could be sent.
 */
export function useSessionQuery() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      const early = startupSession;
      startupSession = null;
      let session: Session;
      try {
        session = await (early ?? authRequest<Session>('GET', '/auth/session'));
      } catch (error) {
        if (error instanceof LedgerReconError && error.code === 401) return null;
        throw error;
      }
      if (early !== null)
        await reconOf(session)
          .tokens.get()
          .catch(() => undefined);
      return session;
    },
    staleTime: 60_000,
  });
}

/**
 * Whether requests that only add to a page may go: a page opened first holds them
 * (holdSecondaryRequestsUntil) until it has what it shows first, so that they do not share the
 * server and the connection with it. A hold lasts at most SECONDARY_HOLD_MILLISECONDS_MAX.
 */
let secondaryRequestsAllowed = true;
const secondaryListeners = new Set<() => void>();
const SECONDARY_HOLD_MILLISECONDS_MAX = 3_000;

export function holdSecondaryRequestsUntil(settled: Promise<unknown>): void {
  secondaryRequestsAllowed = false;
  const allow = () => {
    if (secondaryRequestsAllowed) return;
    secondaryRequestsAllowed = true;
    for (const listener of secondaryListeners) listener();
  };
  settled.then(allow, allow);
  setTimeout(allow, SECONDARY_HOLD_MILLISECONDS_MAX);
}

function subscribeToSecondaryRequests(listener: () => void): () => void {
  secondaryListeners.add(listener);
  return () => secondaryListeners.delete(listener);
}

export function useSecondaryRequestsAllowed(): boolean {
  return useSyncExternalStore(subscribeToSecondaryRequests, () => secondaryRequestsAllowed);
}

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  const recon = useMemo(() => reconOf(session), [session.organizationId, session.user.id]);
  return <SessionContext.Provider value={{ session, recon }}>{children}</SessionContext.Provider>;
}

export function useSession() {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('useSession outside a signed-in page');
  return value;
}

export function useSignOut() {
  const client = useQueryClient();
  return async () => {
    // A token asked for at start belongs to whoever was signed in then.
    startupToken = null;
    // The next person to sign in here gets a client, and tokens, of their own session.
    currentClient = null;
    await authRequest('POST', '/auth/sign-out');
    client.clear();
    client.setQueryData(['session'], null);
  };
}

/** How the app words errors lives in messages.ts; the pages have long asked the session for it. */
export { asSentence, messageOf } from './messages.ts';
