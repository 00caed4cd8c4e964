import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { Link } from 'react-router';
import { messageOf } from '../session.tsx';

/**
 * What a person sees when a screen cannot be shown: its code did not load (the network failed,
 * or the server was upgraded while the page was open and reloading did not help) or the screen
 * failed while drawing. The page's frame and navigation stay, so another screen can be opened;
 * opening one clears the error. Without this the whole app would go blank.
 */
function ScreenFailed({ error }: FallbackProps) {
  const notLoaded = error instanceof TypeError && /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message);
  return (
    <section className="card" role="alert">
      <h1>This screen could not be shown</h1>
      <p className="error">
        {notLoaded ? 'Its code could not be loaded from the server: the connection failed, or the server was upgraded.' : messageOf(error)}
      </p>
      <p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload the page
        </button>{' '}
        or open <Link to="/datasets">Datasets</Link>. If it happens again, tell your administrator what you were doing.
      </p>
    </section>
  );
}

export function ScreenErrorBoundary({ screen, children }: { screen: string; children: ReactNode }) {
  return (
    <ErrorBoundary FallbackComponent={ScreenFailed} resetKeys={[screen]}>
      {children}
    </ErrorBoundary>
  );
}
