import type { FastifySchemaValidationError } from 'fastify';
import { pointerSegment, quoteInput, type ErrorDetail } from '../errors.ts';
import { integerRule } from './schemas/common.ts';

/**
 * Turns schema validation failures into details that name the field and the fix. Unknown
 * properties are refused rather than silently dropped, because a typo in a filter must not
 * quietly widen a query.
 */
export function describeValidationErrors(errors: FastifySchemaValidationError[], context: string): ErrorDetail[] {
  const prefix = context === 'body' ? '' : `/${context}`;
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  // An IntegerLike field, or a choice among constants, fails each branch of its anyOf
  // separately; one sentence per field says it all.
  const unions = new Map<string, string>();
  for (const error of errors) {
    if (error.keyword !== 'anyOf') continue;
    const schema = parentSchemaOf(error);
    const message = isIntegerLike(schema) ? integerMessage(schema) : constantsMessage(schema);
    if (message !== null) unions.set(error.instancePath, message);
  }
  for (const error of errors) {
    const unionMessage = unions.get(error.instancePath);
    if (unionMessage !== undefined) {
      const key = `${prefix}${error.instancePath} union`;
      if (!seen.has(key)) {
        seen.add(key);
        details.push({ path: prefix + error.instancePath, message: unionMessage });
      }
      continue;
    }
    const params = error.params as Record<string, unknown>;
    let path = prefix + error.instancePath;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') {
      const name = String(params.additionalProperty);
      path = `${path}/${pointerSegment(name)}`;
      message = `unknown ${context === 'querystring' ? 'parameter' : 'property'} ${quoteInput(name)}; remove it or check its spelling`;
    } else if (error.keyword === 'required') {
      path = `${path}/${pointerSegment(String(params.missingProperty))}`;
      // Validation stops at the first problem, so a misspelt required field would otherwise be
      // reported only as missing: name the unknown properties found beside it.
      const unknown = unknownPropertiesOf(error);
      message =
        unknown.length === 0
          ? 'is required'
          : `is required; unknown ${unknown.length === 1 ? 'property' : 'properties'} ${unknown
              .slice(0, 5)
              .map((name) => quoteInput(name))
              .join(', ')} found instead (check the spelling)`;
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

function integerMessage(schema: unknown): string {
  return integerRule((schema as { anyOf: { minimum?: number; maximum?: number }[] }).anyOf[0] ?? {});
}

/** For a union of constants (a TypeBox union of literals): "must be one of "a", "b"". */
function constantsMessage(schema: unknown): string | null {
  const branches = (schema as { anyOf?: { const?: unknown }[] } | undefined)?.anyOf;
  if (!Array.isArray(branches) || branches.length === 0 || !branches.every((branch) => branch && 'const' in branch)) return null;
  return `must be one of ${branches.map((branch) => JSON.stringify(branch.const)).join(', ')}`;
}

/** The properties of the object a `required` failure is about that its schema does not know. */
function unknownPropertiesOf(error: FastifySchemaValidationError): string[] {
  const data = (error as { data?: unknown }).data;
  const schema = parentSchemaOf(error) as { properties?: Record<string, unknown>; additionalProperties?: unknown } | undefined;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !schema?.properties || schema.additionalProperties !== false) return [];
  return Object.keys(data).filter((name) => !Object.hasOwn(schema.properties!, name));
}

/** With Ajv's verbose option every failure carries the schema it failed against. */
function parentSchemaOf(error: FastifySchemaValidationError | undefined): unknown {
  return (error as { parentSchema?: unknown } | undefined)?.parentSchema;
}
