import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout.tsx';
import { AuditPage } from './pages/AuditPage.tsx';
import { DatasetsPage } from './pages/DatasetsPage.tsx';
import { DeveloperPage } from './pages/DeveloperPage.tsx';
import { ImportsPage } from './pages/ImportsPage.tsx';
import { MatchingPage } from './pages/MatchingPage.tsx';
import { RulesPage } from './pages/RulesPage.tsx';
import { startTransactionsRequests, TransactionsPage } from './pages/TransactionsPage.tsx';
import { UsersPage } from './pages/UsersPage.tsx';
import { InvitationPage } from './pages/InvitationPage.tsx';
import { PasswordPage } from './pages/PasswordPage.tsx';
import { SignInPage } from './pages/SignInPage.tsx';
import { queryClient, SessionProvider, messageOf, useSessionQuery } from './session.tsx';
import type { LedgerRecon } from '../../sdk/src/index.ts';

/** The dashboard carries the chart library: loaded when it is first opened, not with every page. */
const DashboardPage = lazy(() => import('./pages/DashboardPage.tsx').then((module) => ({ default: module.DashboardPage })));

/**
 * The page opened first starts its first requests as soon as the session is known, while React
 * draws it, instead of after: on the explorer, the rows arrive one drawing of the app sooner.
 */
function startFirstRequests(recon: LedgerRecon): void {
  if (window.location.pathname === '/transactions') startTransactionsRequests(queryClient, recon, new URLSearchParams(window.location.search));
}

export function App() {
  const session = useSessionQuery(startFirstRequests);
  const location = useLocation();
  if (session.isPending) return <p className="centered" role="status">Loading…</p>;
  if (session.isError) return <p className="centered error" role="alert">The server could not be reached: {messageOf(session.error)}</p>;
  return (
    <Routes>
      <Route path="/invitations/:secret" element={<InvitationPage />} />
      <Route path="/sign-in" element={session.data ? <Navigate to={(location.state as { from?: string } | null)?.from ?? '/datasets'} replace /> : <SignInPage />} />
      <Route
        path="*"
        element={
          session.data ? (
            <SessionProvider session={session.data}>
              <Layout>
                <Routes>
                  <Route path="/dashboard" element={<Suspense fallback={<p role="status">Loading…</p>}><DashboardPage /></Suspense>} />
                  <Route path="/datasets" element={<DatasetsPage />} />
                  <Route path="/transactions" element={<TransactionsPage />} />
                  <Route path="/imports" element={<ImportsPage />} />
                  <Route path="/matching" element={<MatchingPage />} />
                  <Route path="/rules" element={<RulesPage />} />
                  <Route path="/developer" element={<DeveloperPage />} />
                  <Route path="/users" element={<UsersPage />} />
                  <Route path="/audit" element={<AuditPage />} />
                  <Route path="/password" element={<PasswordPage />} />
                  <Route path="*" element={<Navigate to="/datasets" replace />} />
                </Routes>
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
