// Runs several test files in this one process (the fast tier's shards): node:test runs the
// tests the files register, and the embedded store's compiled WebAssembly, the loaded
// application and the TypeScript loader are shared by them instead of made once per file.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) await import(pathToFileURL(path.resolve(file)).href);
