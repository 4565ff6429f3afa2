import { defineConfig } from "vitest/config";

// Every benchmark mode at a tiny size against one shared `wrangler dev` (the distance bench's
// Worker), so a bench that can no longer start or print its numbers fails `npm test`.
export default defineConfig({
  test: {
    include: ["test/bench/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    // Beyond startDevServer's own limit (120 s, migrations aside), so its error is the one shown.
    hookTimeout: 240_000,
  },
});
