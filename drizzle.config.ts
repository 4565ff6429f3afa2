import { defineConfig } from "drizzle-kit";

// Generates flat SQL files into migrations/, which wrangler and readD1Migrations both read.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
});
