// The worker thread's entry: registers the TypeScript loader (a worker does not inherit the
// loader of the thread that starts it), then runs the embedded database worker.
import { register } from 'tsx/esm/api';

register();
await import('./embedded-worker.ts');
