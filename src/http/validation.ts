import type { FastifySchemaValidationError } from 'fastify';
import type { ErrorDetail } from '../errors.ts';

/**
 * Turns schema validation failures into details that name the field and the fix. Unknown
 * properties are refused rather than silently dropped, because a typo in a filter must not
 * quietly widen a query.
 */
export function describeValidationErrors(errors: FastifySchemaValidationError[], context: string): ErrorDetail[] {
  const prefix = context === 'body' ? '' : `/${context}`;
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    let path = prefix + error.instancePath;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') {
      path = `${path}/${String(params.additionalProperty)}`;
      message = `unknown property "${String(params.additionalProperty)}"; remove it or check its spelling`;
    } else if (error.keyword === 'required') {
      path = `${path}/${String(params.missingProperty)}`;
      message = 'is required';
    } else if (error.keyword === 'enum') {
      message = `must be one of ${JSON.stringify(params.allowedValues)}`;
    } else if (error.keyword === 'format') {
      message = `must be a valid ${String(params.format)}`;
    }
    const key = `${path} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ path, message });
  }
  return details;
}
