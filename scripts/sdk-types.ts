// Writes the SDK's generated sources from the committed OpenAPI document: the types
// (openapi-typescript) and the page-size maxima of the lists. With --check, fails when the
// committed files differ from what the document gives (CI runs it that way, after the document's
// own check, so that a change of a route reaches the SDK or fails the build).
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

const DOCUMENT_PATH = 'docs/openapi.json';
const TYPES_PATH = 'sdk/src/generated/openapi.ts';
const LIMITS_PATH = 'sdk/src/generated/page-limits.ts';
const HEADER = '// Generated from docs/openapi.json by `npm run sdk:types`; do not edit.\n';

// Of a parameter's JSON Schema only what the page limits need is read.
interface ParameterSchema {
  maximum?: number;
  anyOf?: ParameterSchema[];
}
const document = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; parameters?: { name: string; in: string; schema?: ParameterSchema }[] }>>;
};
const types = HEADER + astToString(await openapiTS(document as never));

const limits: Record<string, number> = {};
for (const operations of Object.values(document.paths)) {
  for (const operation of Object.values(operations)) {
    const limit = operation.parameters?.find((parameter) => parameter.in === 'query' && parameter.name === 'limit');
    const schema = limit?.schema?.anyOf?.[0] ?? limit?.schema;
    if (operation.operationId && typeof schema?.maximum === 'number') limits[operation.operationId] = schema.maximum;
  }
}
const limitsSource =
  HEADER +
  '\n/** The largest `limit` each list operation accepts, by operationId. */\n' +
  `export const PAGE_LIMIT_MAXIMA = ${JSON.stringify(limits, null, 2).replace(/"(\w+)":/g, '$1:')} as const;\n`;

const outputs: [string, string][] = [
  [TYPES_PATH, types],
  [LIMITS_PATH, limitsSource],
];
if (process.argv.includes('--check')) {
  const stale = outputs.filter(([path, text]) => {
    try {
      return readFileSync(path, 'utf8') !== text;
    } catch {
      return true;
    }
  });
  if (stale.length > 0) {
    console.error(`${stale.map(([path]) => path).join(', ')} out of date with ${DOCUMENT_PATH}; run "npm run sdk:types" and commit the result`);
    process.exit(1);
  }
  console.log(`the SDK's generated sources match ${DOCUMENT_PATH}`);
} else {
  for (const [path, text] of outputs) writeFileSync(path, text);
  console.log(`wrote ${outputs.map(([path]) => path).join(', ')}`);
}
