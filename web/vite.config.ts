import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * The app's first file is small and loads the rest of the app itself (see src/main.tsx); the page
 * tells the browser of that rest at once, so that the browser fetches and compiles it while the
 * first file runs and sends the first requests, rather than after.
 */
function preloadAppCode(): Plugin {
  return {
    name: 'ledger-recon:preload-app-code',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        const entry = context.chunk;
        if (bundle === undefined || entry === undefined) return [];
        // The entry itself is loaded by its own script tag.
        const files = new Set<string>([entry.fileName]);
        const add = (file: string) => {
          const chunk = bundle[file];
          if (files.has(file) || chunk === undefined || chunk.type !== 'chunk') return;
          files.add(file);
          chunk.imports.forEach(add);
        };
        // The rest of the app is the entry's one dynamic import; the screens are imported by it.
        entry.dynamicImports.forEach(add);
        files.delete(entry.fileName);
        return [...files].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

// The web app, built into web/dist by the project's install (the root package's `prepare`) and
// served by the server at /. `npm run web:dev` serves it with hot reload against a running
// server on port 3000.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), preloadAppCode()],
  // The app reaches the server only through the SDK, by its package name, as any customer's app
  // would; here the name is the SDK's source, so the app is built against the SDK of this tree.
  resolve: { alias: { '@ledger-recon/sdk': fileURLToPath(new URL('../sdk/src/index.ts', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: { '/auth': 'http://127.0.0.1:3000', '/v1': 'http://127.0.0.1:3000', '/oauth': 'http://127.0.0.1:3000' },
  },
});
