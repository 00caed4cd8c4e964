import type { ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useSession, useSignOut } from '../session.tsx';
import { FailingWebhooksBanner } from './FailingWebhooksBanner.tsx';

export function Layout({ children }: { children: ReactNode }) {
  const { session } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">ledger-recon</span>
        <nav aria-label="Main" className="main-nav">
          <NavLink to="/dashboard">Dashboard</NavLink>
          <NavLink to="/datasets">Datasets</NavLink>
          <NavLink to="/imports">Imports</NavLink>
          <NavLink to="/transactions">Transactions</NavLink>
          <NavLink to="/matching">Matching</NavLink>
          <NavLink to="/rules">Rules and runs</NavLink>
          <NavLink to="/close">Close</NavLink>
          {session.user.role === 'Administrator' && <NavLink to="/connections">Connections</NavLink>}
          <NavLink to="/developer">Developer</NavLink>
          {session.user.role === 'Administrator' && <NavLink to="/users">Users</NavLink>}
          <NavLink to="/audit">Audit</NavLink>
        </nav>
        <div className="account">
          <span title={session.user.role}>{session.user.email}</span>
          <NavLink to="/password">Password</NavLink>
          <button
            type="button"
            className="link"
            onClick={async () => {
              await signOut();
              navigate('/sign-in');
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <FailingWebhooksBanner />
      <main>{children}</main>
    </div>
  );
}
