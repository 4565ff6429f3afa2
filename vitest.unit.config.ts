import { defineConfig } from "vitest/config";

// Pure domain code runs under plain Node: fast unit and property tests, no workerd.
export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    environment: "node",
  },
});
