import { defineConfig } from "vitest/config";

// Real Chromium (from the @sparticuz/chromium package, via playwright-core) against a real `wrangler dev`
// serving the built assets: one server for every file, files one after another.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/browser/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
