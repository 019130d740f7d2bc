import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/sanctum': 'http://127.0.0.1:3000',
      '/storage': 'http://127.0.0.1:3000',
    },
  },
  // The manifest lets scripts/size.mjs follow what the /login route loads.
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 600, manifest: true },
});
