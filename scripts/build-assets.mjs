// Builds the Worker's static assets into dist/assets (gitignored; wrangler.toml [assets]):
// the booking widget (widget/, bundled by esbuild) and Scalar's browser bundle for /docs,
// so neither page loads anything from another host.
import { copyFileSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const TARGET = "dist/assets";
// Built beside the target and swapped in at the end, so a running `wrangler dev` or test
// pool never sees the folder missing for more than an instant.
const OUT = `${TARGET}.next`;

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, "widget"), { recursive: true });
mkdirSync(join(OUT, "docs"), { recursive: true });

await build({
  entryPoints: ["widget/main.tsx"],
  bundle: true,
  minify: true,
  sourcemap: true,
  format: "esm",
  target: ["es2020", "safari14"],
  jsx: "automatic",
  jsxImportSource: "preact",
  outfile: join(OUT, "widget", "app.js"),
  logLevel: "warning",
});
// `/widget` serves widget.html (Workers assets drop the extension), keeping the query string.
copyFileSync("widget/index.html", join(OUT, "widget.html"));
copyFileSync("widget/styles.css", join(OUT, "widget", "app.css"));

// The UMD standalone bundle: one file, no lazily imported chunks.
// The package exports no path to it, hence the node_modules path.
copyFileSync(
  "node_modules/@scalar/api-reference/dist/browser/standalone.js",
  join(OUT, "docs", "scalar.js"),
);

rmSync(TARGET, { recursive: true, force: true });
renameSync(OUT, TARGET);
console.log(`assets built in ${TARGET}`);
