import { defineConfig } from "vitest/config";

// The README's curl examples, run by bash against `npm start` on a spare port with fresh state.
export default defineConfig({
  test: {
    include: ["test/readme/**/*.test.ts"],
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
