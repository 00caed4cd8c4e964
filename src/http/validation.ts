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
  // An IntegerLike field fails each branch of its anyOf separately; one sentence says it all.
  const integerLikePaths = new Set(
    errors.filter((error) => error.keyword === 'anyOf' && isIntegerLike(parentSchemaOf(error))).map((error) => error.instancePath),
  );
  for (const error of errors) {
    if (integerLikePaths.has(error.instancePath)) {
      const key = `${prefix}${error.instancePath} integer`;
      if (!seen.has(key)) {
        seen.add(key);
        details.push({ path: prefix + error.instancePath, message: integerMessage(errors, error.instancePath) });
      }
      continue;
    }
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

function isIntegerLike(schema: unknown): boolean {
  const branches = (schema as { anyOf?: { type?: string }[] } | undefined)?.anyOf;
  return Array.isArray(branches) && branches.length === 2 && branches[0]?.type === 'integer' && branches[1]?.type === 'string';
}

/** "must be an integer from 1 to 1000 (a string of digits is accepted too)". */
function integerMessage(errors: FastifySchemaValidationError[], instancePath: string): string {
  const anyOf = errors.find((error) => error.instancePath === instancePath && error.keyword === 'anyOf');
  const integer = (parentSchemaOf(anyOf) as { anyOf?: { minimum?: number; maximum?: number }[] } | undefined)?.anyOf?.[0] ?? {};
  const range =
    integer.minimum !== undefined && integer.maximum !== undefined
      ? ` from ${integer.minimum} to ${integer.maximum}`
      : integer.minimum !== undefined
        ? ` of at least ${integer.minimum}`
        : integer.maximum !== undefined
          ? ` of at most ${integer.maximum}`
          : '';
  return `must be an integer${range} (a string of digits such as "100" is accepted too)`;
}

/** With Ajv's verbose option every failure carries the schema it failed against. */
function parentSchemaOf(error: FastifySchemaValidationError | undefined): unknown {
  return (error as { parentSchema?: unknown } | undefined)?.parentSchema;
}
