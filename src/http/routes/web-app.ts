import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { acceptAnyQuery } from '../query-parameters.ts';

/**
 * The web app (web/, built into web/dist by the project's install) served at /: its assets
 * under /assets, and its page for every path of the app, where the browser's router takes over.
 * The app reaches the server only through the API (via the SDK) and /auth.
 */

const DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));
/** The app's own paths; anything else stays a 404 of the API. */
const APP_PATHS = [
  '/',
  '/sign-in',
  '/dashboard',
  '/datasets',
  '/imports',
  '/transactions',
  '/matching',
  '/rules',
  '/runs/:runId',
  '/close',
  '/close/:reconciliationId',
  '/close/:reconciliationId/exceptions',
  '/developer',
  '/connections',
  '/users',
  '/audit',
  '/password',
  '/invitations/:secret',
];
/**
 * The one inline style the page may add, by its SHA-256: the rule React Aria's pressable elements
 * (the matching workspace's lists) put in the page's head, so that a tap is not held back by a
 * double-tap zoom. Another release of React Aria that writes the rule otherwise is refused, and
 * the browser test of the matching workspace, which fails on any refusal, says so.
 */
const REACT_ARIA_PRESSABLE_STYLE_SHA256 = "'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='";
/** The page may load only what the server itself serves, and no other site may frame it. */
const CONTENT_SECURITY_POLICY = `default-src 'self'; img-src 'self' data:; style-src 'self' ${REACT_ARIA_PRESSABLE_STYLE_SHA256}; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;

export async function webAppRoutes(app: FastifyInstance) {
  // The app's pages read their own query strings (a link to a dataset's transactions) in the browser.
  acceptAnyQuery(app);
  const indexPath = path.join(DIST, 'index.html');
  const built = existsSync(indexPath);
  const page = built ? readFileSync(indexPath, 'utf8') : null;
  if (built) {
    await app.register(fastifyStatic, { root: path.join(DIST, 'assets'), prefix: '/assets/', decorateReply: false, immutable: true, maxAge: '365d' });
  }
  const sendPage = (reply: FastifyReply) => {
    reply.headers({
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-cache',
    });
    if (page === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built. "npm install" builds it (its prepare step); or run "npm run web:build", then reload.\n');
    }
    return reply.type('text/html; charset=utf-8').send(page);
  };
  for (const appPath of APP_PATHS) app.get(appPath, { schema: { hide: true } }, async (_request, reply) => sendPage(reply));
}
