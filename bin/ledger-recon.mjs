#!/usr/bin/env node
// The command-line entry: loads the TypeScript sources through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
