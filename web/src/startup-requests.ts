/**
 * The two requests every start of the app makes first, the session and an access token, sent by
 * the first lines of the app that run: before the browser has parsed and run the rest of its code
 * (React, the router, the SDK), which takes tens of milliseconds, rather than after. They are the
 * requests session.tsx would send, and it reads their answers as its own (see startupSession and
 * startupToken there). This module imports nothing, so that it stays in the app's small first file.
 */

export const startupSessionResponse: Promise<Response> = fetch('/auth/session', {
  method: 'GET',
  credentials: 'same-origin',
  headers: { accept: 'application/json' },
});

/** As the SDK's sessionAccessToken sends it, which reads the answer. */
export const startupTokenResponse: Promise<Response> = fetch(`${window.location.origin}/auth/token`, {
  method: 'POST',
  credentials: 'same-origin',
  headers: { accept: 'application/json' },
});

// Read later, or never (a failed start): a failure here is reported where it is read.
startupSessionResponse.catch(() => {});
startupTokenResponse.catch(() => {});
