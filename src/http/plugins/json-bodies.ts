import type { FastifyInstance } from 'fastify';
import { parseJsonBody } from '../request-text.ts';

/**
 * The API reads JSON bodies only, strictly (request-text.ts): bytes that are not UTF-8, a
 * repeated member name, nesting without bound and text the store cannot hold are refused with
 * the pointer of the field, instead of being replaced, dropped or failing later in the store.
 * Fastify also parses text/plain by default, which would turn a JSON body sent with the wrong
 * content type into a confusing "must be object"; removing it yields the plain 415 answer that
 * says to send application/json. Many HTTP clients send `content-type: application/json` on
 * every request, bodiless DELETEs included, so an empty body is read as no body for the
 * operations that take none.
 */
export function registerJsonBodies(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0 && (request.method === 'DELETE' || request.method === 'GET')) {
      done(null, undefined);
      return;
    }
    if (bytes.length === 0) {
      done(Object.assign(new Error('empty body'), { statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' }));
      return;
    }
    parseJsonBody(bytes).then(
      (value) => done(null, value),
      (error: Error) => done(error),
    );
  });
}
