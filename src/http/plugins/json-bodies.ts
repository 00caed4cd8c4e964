import type { FastifyInstance } from 'fastify';

/**
 * The API reads JSON bodies only. Fastify also parses text/plain by default, which would turn a
 * JSON body sent with the wrong content type into a confusing "must be object"; removing it
 * yields the plain 415 answer that says to send application/json. Many HTTP clients send
 * `content-type: application/json` on every request, bodiless DELETEs included, so an empty
 * body is read as no body for the operations that take none.
 */
export function registerJsonBodies(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && (request.method === 'DELETE' || request.method === 'GET')) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}
