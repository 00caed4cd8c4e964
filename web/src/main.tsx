import './startup-requests.ts';
import './styles.css';

/**
 * The app's first file is small: it sends the first requests (startup-requests.ts), then loads
 * the rest of the app, whose parsing and running overlap with those requests.
 *
 * The code of each screen is loaded when the screen is first shown. A page open from before the
 * server was upgraded asks for files of the old build, which are no longer served: it is loaded
 * afresh, unless it was a moment ago, so that a server that really fails to serve them is not
 * asked in a loop (the error shows then).
 */
const RELOADED_FOR_UPGRADE_AT = 'ledger-recon:reloaded-for-upgrade-at';
const RELOAD_AGAIN_AFTER_MILLISECONDS = 10_000;
window.addEventListener('vite:preloadError', (event) => {
  if (Date.now() - Number(sessionStorage.getItem(RELOADED_FOR_UPGRADE_AT) ?? 0) < RELOAD_AGAIN_AFTER_MILLISECONDS) return;
  sessionStorage.setItem(RELOADED_FOR_UPGRADE_AT, String(Date.now()));
  event.preventDefault();
  window.location.reload();
});

void import('./boot.tsx');
