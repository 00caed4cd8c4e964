import { createElement, lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout.tsx';
import { ScreenErrorBoundary } from './components/ScreenErrorBoundary.tsx';
import { startTransactionsRequests } from './transactions-query.ts';
import { SignInPage } from './pages/SignInPage.tsx';
import { holdSecondaryRequestsUntil, queryClient, SessionProvider, messageOf, useSessionQuery, withFirstToken } from './session.tsx';

/**
 * A screen whose code loads when it is first shown, or earlier with `preload`: opening one screen
 * does not load, parse and run the code of every other (the dashboard's charts, the rule editor,
 * the developer page's webhooks). Once its code is here, it is drawn at once rather than through
 * the loading state.
 */
function lazyScreen(load: () => Promise<ComponentType>) {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const preload = () => {
    loading ??= load().then((component) => (loaded = component));
    // A failed load is tried again the next time the screen is shown.
    loading.catch(() => (loading = null));
    return loading;
  };
  const Deferred = lazy(() => preload().then((component) => ({ default: component })));
  function Screen() {
    return loaded !== null ? createElement(loaded) : <Deferred />;
  }
  return { Screen, preload };
}

const screens = {
  '/dashboard': lazyScreen(() => import('./pages/DashboardPage.tsx').then((module) => module.DashboardPage)),
  '/datasets': lazyScreen(() => import('./pages/DatasetsPage.tsx').then((module) => module.DatasetsPage)),
  '/transactions': lazyScreen(() => import('./pages/TransactionsPage.tsx').then((module) => module.TransactionsPage)),
  '/imports': lazyScreen(() => import('./pages/ImportsPage.tsx').then((module) => module.ImportsPage)),
  '/matching': lazyScreen(() => import('./pages/MatchingPage.tsx').then((module) => module.MatchingPage)),
  '/match-group': lazyScreen(() => import('./pages/MatchGroupPage.tsx').then((module) => module.MatchGroupPage)),
  '/rules': lazyScreen(() => import('./pages/RulesPage.tsx').then((module) => module.RulesPage)),
  '/runs/:runId': lazyScreen(() => import('./pages/RunPage.tsx').then((module) => module.RunPage)),
  '/close': lazyScreen(() => import('./pages/ClosePage.tsx').then((module) => module.ClosePage)),
  '/close/:reconciliationId': lazyScreen(() => import('./pages/StatementPage.tsx').then((module) => module.StatementPage)),
  '/close/:reconciliationId/exceptions': lazyScreen(() => import('./pages/ExceptionsPage.tsx').then((module) => module.ExceptionsPage)),
  '/developer': lazyScreen(() => import('./pages/DeveloperPage.tsx').then((module) => module.DeveloperPage)),
  '/connections': lazyScreen(() => import('./pages/ConnectionsPage.tsx').then((module) => module.ConnectionsPage)),
  '/users': lazyScreen(() => import('./pages/UsersPage.tsx').then((module) => module.UsersPage)),
  '/audit': lazyScreen(() => import('./pages/AuditPage.tsx').then((module) => module.AuditPage)),
  '/password': lazyScreen(() => import('./pages/PasswordPage.tsx').then((module) => module.PasswordPage)),
} as const;
const InvitationScreen = lazyScreen(() => import('./pages/InvitationPage.tsx').then((module) => module.InvitationPage));

/** The screen of a path the app opens on; the one the app opens on without a path of its own. */
function screenOf(pathname: string) {
  if (pathname.startsWith('/invitations/')) return InvitationScreen;
  if (pathname.startsWith('/runs/')) return screens['/runs/:runId'];
  if (/^\/close\/[^/]+\/exceptions$/.test(pathname)) return screens['/close/:reconciliationId/exceptions'];
  if (pathname.startsWith('/close/')) return screens['/close/:reconciliationId'];
  return pathname in screens ? screens[pathname as keyof typeof screens] : screens['/datasets'];
}

/**
 * As the app starts: the code of the screen being opened loads beside the session and the first
 * token, rather than after them; and the explorer opened on a dataset asks for its first rows as
 * soon as the first token is here, before anything that only adds to the page.
 */
if (window.location.pathname !== '/sign-in')
  void screenOf(window.location.pathname)
    .preload()
    .catch(() => undefined);
if (window.location.pathname === '/transactions') {
  holdSecondaryRequestsUntil(withFirstToken((recon) => startTransactionsRequests(queryClient, recon, new URLSearchParams(window.location.search))));
}

/** The place of a screen while its code loads: the page's frame stays, with a line where the screen goes. */
const LOADING_SCREEN = (
  <p className="hint" role="status">
    Loading…
  </p>
);

export function App() {
  const session = useSessionQuery();
  const location = useLocation();
  if (session.isPending)
    return (
      <p className="centered" role="status">
        Loading…
      </p>
    );
  if (session.isError)
    return (
      <p className="centered error" role="alert">
        {messageOf(session.error)}
      </p>
    );
  return (
    <Routes>
      <Route
        path="/invitations/:secret"
        element={
          <ScreenErrorBoundary screen={location.pathname}>
            <Suspense
              fallback={
                <p className="centered" role="status">
                  Loading…
                </p>
              }
            >
              <InvitationScreen.Screen />
            </Suspense>
          </ScreenErrorBoundary>
        }
      />
      <Route
        path="/sign-in"
        element={session.data ? <Navigate to={(location.state as { from?: string } | null)?.from ?? '/datasets'} replace /> : <SignInPage />}
      />
      <Route
        path="*"
        element={
          session.data ? (
            <SessionProvider session={session.data}>
              <Layout>
                <ScreenErrorBoundary screen={location.pathname}>
                  <Suspense fallback={LOADING_SCREEN}>
                    <Routes>
                      {Object.entries(screens).map(([path, screen]) => (
                        <Route key={path} path={path} element={<screen.Screen />} />
                      ))}
                      <Route path="*" element={<Navigate to="/datasets" replace />} />
                    </Routes>
                  </Suspense>
                </ScreenErrorBoundary>
              </Layout>
            </SessionProvider>
          ) : (
            <Navigate to="/sign-in" replace state={{ from: location.pathname }} />
          )
        }
      />
    </Routes>
  );
}
