import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleGuard } from './scripts/bundle-guard.ts';

/** Where `pnpm dev` sends API calls: the server started by `pnpm start` (PORT 3000). */
const apiTarget = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), bundleGuard()],
  build: { sourcemap: false, chunkSizeWarningLimit: 1_000 },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/rest': { target: apiTarget, changeOrigin: false },
    },
  },
});
