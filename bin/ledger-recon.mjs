#!/usr/bin/env node
// The command-line entry: loads the TypeScript sources through tsx's loader.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The project's tsconfig.json, wherever the command is run from: its `paths` name the SDK
// (@ledger-recon/sdk), which the client commands import by that name.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/cli.ts');
