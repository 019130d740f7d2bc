import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build-compress';
import { onBuildWarning } from './build-warnings';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/sanctum': 'http://127.0.0.1:3000',
      '/storage': 'http://127.0.0.1:3000',
    },
  },
  // The manifest lets scripts/size.mjs follow what the /login route loads.
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    manifest: true,
    // Dependencies' warnings we cannot act on are left out (build-warnings.ts).
    rollupOptions: { onwarn: onBuildWarning },
  },
});
