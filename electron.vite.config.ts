import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: { input: { index: resolve('electron/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require packages: bundle zod and the contract into one CJS file.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    base: './',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      minify: process.env.LATHE_NO_MINIFY ? false : true,
      sourcemap: Boolean(process.env.LATHE_SOURCEMAP),
      reportCompressedSize: true,
      chunkSizeWarningLimit: 4096,
      rolldownOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});
