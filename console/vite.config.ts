import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The console's own build (docs/console.md): console/ -> console/dist, served under /console/ (the gateway locally,
 * CloudFront from S3 when deployed). Every file but index.html lands hashed under assets/, which both servers cache
 * for a year; nothing is inlined into index.html, so the Content-Security-Policy needs no inline script. The root is
 * console/ (scripts/console-build.ts passes it; `npx vite build console` too).
 */
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Inlined assets would be data: URLs inside the hashed files, never inline script; kept as files anyway.
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
