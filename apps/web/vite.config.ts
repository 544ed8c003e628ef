import { defineConfig } from 'vite';

/** The app is served by the server under /capture (history routing); the API lives under /product. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/capture/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      // react-router ships "use client" directives, meaningless in a client-only bundle.
      onwarn: (w, warn) => {
        if (w.code !== 'MODULE_LEVEL_DIRECTIVE') warn(w);
      },
      output: { manualChunks: { three: ['three'], react: ['react', 'react-dom', 'react-router-dom'] } },
    },
  },
  server: {
    proxy: { '/product': { target: process.env.MOCAP_API ?? 'http://127.0.0.1:3000', changeOrigin: true } },
  },
});
