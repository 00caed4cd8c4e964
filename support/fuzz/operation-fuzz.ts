import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  anyJson,
  decimalText,
  idLike,
  longStrings,
  nastyText,
  nowAndThen,
  rawBodies,
  scalar,
  segment,
  type FuzzContext,
  type FuzzRequest,
  type FuzzTarget,
} from './blocks.ts';

/**
 * Requests derived from docs/openapi.json (which `npm run openapi -- --check` keeps equal to the
 * routes): for every operation that no hand-written target covers, path parameters from the ids
 * that exist (and from anything else), query parameters and JSON bodies generated from the
 * operation's schemas, the operation's known-good body with one member changed or removed, and
 * bodies that are not what a JSON reader expects. An operation added to the API is fuzzed from
 * its first commit.
 */

type Schema = Record<string, any>;

interface Operation {
  method: string;
  /** The path as the document writes it, with {name} parameters. */
  path: string;
  operationId: string;
  parameters: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

const DOCUMENT = JSON.parse(readFileSync(path.resolve('docs/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Nesting a generated value goes down to; deeper members are left out (the schemas recurse). */
const DEPTH_LIMIT = 4;
/** Items per generated array, and characters per generated text without a tighter bound. */
const ITEMS_LIMIT = 3;
const TEXT_LIMIT = 40;
/** A derived target's share of a run, against a hand-written one's 1: its cases are shallower. */
const DERIVED_SHARE = 0.2;

/** Every operation of the API document. */
export function documentedOperations(): Operation[] {
  return Object.entries(DOCUMENT.paths).flatMap(([route, item]) =>
    METHODS.filter((method) => item[method]?.operationId).map((method) => ({
      ...item[method]!,
      method: method.toUpperCase(),
      path: route,
      parameters: item[method]!.parameters ?? [],
    })),
  );
}

function resolve(schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return DOCUMENT.components.schemas[name] ?? {};
}

/** Values that fit a schema, now and then something that does not. */
function valueOf(schema: Schema, context: FuzzContext, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 10, arbitrary: fittingValue(resolve(schema), context, depth) }, { weight: 1, arbitrary: scalar });
}

function fittingValue(schema: Schema, context: FuzzContext, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const choices = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(choices) && choices.length > 0) return fc.oneof(...choices.map((choice: Schema) => valueOf(choice, context, depth)));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  const arbitraries = type.map((kind: string | undefined) => valueOfType(kind, schema, context, depth));
  return arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
}

function valueOfType(kind: string | undefined, schema: Schema, context: FuzzContext, depth: number): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return textOf(schema, context);
    case 'integer': {
      const min = Math.max(schema.minimum ?? -10, -1e12);
      return fc.integer({ min, max: Math.max(min, Math.min(schema.maximum ?? 2000, 1e12)) });
    }
    case 'number':
      return fc.oneof(fc.integer({ min: -1000, max: 1_800_000_000_000 }), fc.double({ noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth >= DEPTH_LIMIT) return fc.constant([]);
      const minLength = Math.min(schema.minItems ?? 0, ITEMS_LIMIT);
      return fc.array(valueOf(schema.items ?? {}, context, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? ITEMS_LIMIT, ITEMS_LIMIT)),
      });
    }
    case 'object':
      return objectOf(schema, context, depth);
    default:
      // A member the schema only describes (a rule's members are checked by the service).
      return schema.properties
        ? objectOf(schema, context, depth)
        : fc.oneof(scalar, decimalText, anyJson, fc.constantFrom(...Object.values(context.ids).flat()));
  }
}

function textOf(schema: Schema, context: FuzzContext): fc.Arbitrary<string> {
  if (schema.format === 'uuid')
    return fc.oneof(
      fc.constantFrom(
        ...Object.values(context.ids)
          .flat()
          .filter((id) => /^[0-9a-f-]{36}$/.test(id)),
      ),
      fc.uuid(),
    );
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  const maxLength = Math.min(schema.maxLength ?? TEXT_LIMIT, TEXT_LIMIT);
  if (typeof schema.pattern === 'string')
    return fc.stringMatching(new RegExp(schema.pattern)).map((text) => text.slice(0, Math.max(maxLength, schema.minLength ?? 0)));
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }));
}

function objectOf(schema: Schema, context: FuzzContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth >= DEPTH_LIMIT) return fc.constant({});
  const properties: Record<string, Schema> = schema.properties ?? {};
  const record = fc.record(Object.fromEntries(Object.entries(properties).map(([name, member]) => [name, valueOf(member, context, depth + 1)])), {
    requiredKeys: (schema.required ?? []).filter((name: string) => name in properties),
  });
  // Members the schema does not name: refused where it says so, and tried everywhere.
  return fc.tuple(record, nowAndThen(fc.dictionary(nastyText, scalar, { minKeys: 1, maxKeys: 2 }))).map(([known, unknown]) => ({ ...unknown, ...known }));
}

/** Every path to a member or item of a JSON value. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...prefix, index], ...pathsOf(item, [...prefix, index])]);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([name, item]) => [[...prefix, name], ...pathsOf(item, [...prefix, name])]);
  return [];
}

/** A known-good body as it is, with one member or item replaced or removed, or with a member added. */
function mutationsOf(sample: unknown, context: FuzzContext): fc.Arbitrary<unknown> {
  const paths = pathsOf(sample);
  const edit = (at: (string | number)[], change: (parent: any, key: string | number) => void) => {
    const copy = structuredClone(sample) as any;
    let parent = copy;
    for (const key of at.slice(0, -1)) parent = parent[key];
    change(parent, at.at(-1)!);
    return copy;
  };
  const replacement = fc.oneof(scalar, decimalText, anyJson, idLike, fc.constantFrom(...Object.values(context.ids).flat()));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(sample) },
    ...(paths.length === 0
      ? []
      : [
          { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...paths), replacement).map(([at, value]) => edit(at, (parent, key) => (parent[key] = value))) },
          {
            weight: 1,
            arbitrary: fc
              .constantFrom(...paths)
              .map((at) => edit(at, (parent, key) => (Array.isArray(parent) ? parent.splice(Number(key), 1) : delete parent[key]))),
          },
        ]),
    {
      weight: 1,
      arbitrary: fc
        .tuple(nastyText, scalar)
        .map(([name, value]) => (sample !== null && typeof sample === 'object' && !Array.isArray(sample) ? { ...sample, [name]: value } : sample)),
    },
  );
}

/** A path parameter: an id that exists (of the fuzz's organization, for {orgId}), or anything. */
function parameterValue(name: string, schema: Schema, context: FuzzContext): fc.Arbitrary<string> {
  const known = context.ids[name] ?? [];
  const other = fc.oneof(textOf(resolve(schema), context), idLike);
  return known.length === 0 ? other : fc.oneof({ weight: name === 'orgId' ? 30 : 6, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: other });
}

/** Text that a header can carry (visible ASCII), since fetch refuses any other before sending. */
const headerText = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), minLength: 0, maxLength: 300 });

function casesOf(operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const takesIdempotencyKey = operation.parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key');
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const underAuth = operation.path.startsWith('/auth/');
  // Signing out would end the one session the fuzz has for the other operations under /auth.
  const withSession = underAuth && operation.operationId !== 'signOut';

  const routePath = fc
    .record(Object.fromEntries(pathParameters.map((parameter) => [parameter.name, parameterValue(parameter.name, parameter.schema, context)])))
    .map((values) => operation.path.replace(/\{(\w+)\}/g, (_whole, name: string) => segment((values as Record<string, string>)[name]!)));
  const query = fc
    .tuple(
      fc.record(
        Object.fromEntries(
          queryParameters.map((parameter) => [
            parameter.name,
            fc.oneof(
              { weight: 5, arbitrary: valueOf(parameter.schema, context).map((value) => (typeof value === 'string' ? value : JSON.stringify(value))) },
              { weight: 1, arbitrary: nastyText },
            ),
          ]),
        ),
        { requiredKeys: queryParameters.filter((parameter) => parameter.required).map((parameter) => parameter.name) },
      ),
      nowAndThen(fc.tuple(nastyText, nastyText)),
    )
    .map(([known, unknown]) => {
      const entries = Object.entries(known as Record<string, string>);
      if (unknown) entries.push(unknown);
      return {
        text: entries.length === 0 ? '' : `?${entries.map(([name, value]) => `${segment(name)}=${segment(value)}`).join('&')}`,
        inputs: longStrings(entries.map(([, value]) => value)),
      };
    });
  const headers = fc.record(
    {
      authorization: fc.oneof(
        { weight: 12, arbitrary: fc.constant(`Bearer ${context.organization.token}`) },
        { weight: 1, arbitrary: headerText.map((text) => `Bearer ${text}`) },
      ),
      cookie: withSession
        ? fc.oneof(
            { weight: 12, arbitrary: fc.constant(context.sessionCookie) },
            { weight: 1, arbitrary: headerText.map((text) => `ledger_recon_session=${text}`) },
          )
        : headerText.map((text) => `ledger_recon_session=${text}`),
      origin: fc.constantFrom(context.server.baseUrl, 'https://attacker.example'),
      'idempotency-key': takesIdempotencyKey ? headerText : fc.constant(undefined),
    },
    { requiredKeys: underAuth ? [] : ['authorization'] },
  );
  const body: fc.Arbitrary<{ body?: string; inputs: string[] }> = bodySchema
    ? fc
        .oneof(
          { weight: 4, arbitrary: valueOf(bodySchema, context) },
          ...(context.samples[operation.operationId] !== undefined
            ? [{ weight: 4, arbitrary: mutationsOf(context.samples[operation.operationId], context) }]
            : []),
          { weight: 1, arbitrary: anyJson },
        )
        .map((value) => ({ body: JSON.stringify(value), inputs: longStrings(value) }))
    : fc.constant({ inputs: [] });

  const request = fc.tuple(routePath, query, headers, body).map(([route, search, chosen, content]): FuzzRequest => {
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(chosen)) if (typeof value === 'string') sent[name] = value;
    if (content.body !== undefined) sent['content-type'] = 'application/json';
    return {
      method: operation.method,
      path: `${route}${search.text}`,
      headers: sent,
      body: content.body,
      breaksRule: false,
      inputs: [...search.inputs, ...content.inputs],
    };
  });
  if (!bodySchema) return request;
  // Bodies a JSON reader must refuse, on the operation's own path.
  return fc.oneof({ weight: 8, arbitrary: request }, { weight: 1, arbitrary: routePath.chain((route) => rawBodies(context, operation.method, route)) });
}

/**
 * One target per documented operation not among `covered` (the operationIds hand-written targets
 * cover). The deletions come last, so that the other operations still find what they delete.
 */
export function operationTargets(covered: readonly string[]): FuzzTarget[] {
  return documentedOperations()
    .filter((operation) => !covered.includes(operation.operationId))
    .sort((left, right) => Number(left.method === 'DELETE') - Number(right.method === 'DELETE'))
    .map((operation) => ({
      name: `${operation.method} ${operation.path.replace('/v1/api/{orgId}', '')}`,
      operations: [operation.operationId],
      errorForm: 'api' as const,
      share: DERIVED_SHARE,
      cases: (context: FuzzContext) => casesOf(operation, context),
    }));
}
