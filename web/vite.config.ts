import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The web app, built into web/dist by the project's install (the root package's `prepare`) and
// served by the server at /. `npm run web:dev` serves it with hot reload against a running
// server on port 3000.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: { '/auth': 'http://127.0.0.1:3000', '/v1': 'http://127.0.0.1:3000', '/oauth': 'http://127.0.0.1:3000' },
  },
});
