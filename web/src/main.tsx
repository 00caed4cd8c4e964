import './startup-requests.ts';
import './styles.css';

/**
 * The app's first file is small: it sends the first requests (startup-requests.ts), then loads
 * the rest of the app, whose parsing and running overlap with those requests.
 *
 * The code of each screen is loaded when the screen is first shown. A page open from before the
 * server was upgraded asks for files of the old build, which are no longer served: it is loaded
 * afresh (once, so that a server that really fails to serve them is not asked in a loop).
 */
const RELOADED_FOR_UPGRADE = 'ledger-recon:reloaded-for-upgrade';
window.addEventListener('vite:preloadError', (event) => {
  if (sessionStorage.getItem(RELOADED_FOR_UPGRADE) !== null) return;
  sessionStorage.setItem(RELOADED_FOR_UPGRADE, String(Date.now()));
  event.preventDefault();
  window.location.reload();
});
window.addEventListener('load', () => sessionStorage.removeItem(RELOADED_FOR_UPGRADE));

void import('./boot.tsx');
