import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../errors.ts';

/**
 * The API reads JSON bodies only. Fastify also parses text/plain by default, which would turn a
 * JSON body sent with the wrong content type into a confusing "must be object"; removing it
 * yields the plain 415 answer that says to send application/json. Many HTTP clients send
 * `content-type: application/json` on every request, bodiless DELETEs included, so an empty
 * body is read as no body for the operations that take none. A NUL character, which the store
 * cannot hold, is refused here with the pointer of the field that carries it.
 */
export function registerJsonBodies(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && (request.method === 'DELETE' || request.method === 'GET')) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, (error, parsed) => {
      if (error) return done(error);
      const pointer = nulCharacterAt(parsed, '');
      if (pointer !== null) return done(invalidField(pointer, 'must not contain the NUL character (\\u0000), which cannot be stored; remove it'));
      done(null, parsed);
    });
  });
}

/**
 * The JSON pointer of the first string (or key) holding a NUL character, or null. Checked once
 * here, for every body of the API, so that the answer names the field wherever it is.
 */
function nulCharacterAt(value: unknown, pointer: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer || '/' : null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = nulCharacterAt(value[index], `${pointer}/${index}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const path = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key.includes('\u0000')) return path;
      const found = nulCharacterAt(item, path);
      if (found !== null) return found;
    }
  }
  return null;
}
