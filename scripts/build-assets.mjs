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
  // The booking widget and its manage page (one booking, opened from a customer's message).
  entryPoints: {
    app: "widget/main.tsx",
    manage: "widget/manage/main.tsx",
    // A waitlist offer's page (one held time, opened from a customer's message).
    offer: "widget/offer/main.tsx",
  },
  bundle: true,
  minify: true,
  sourcemap: true,
  // Code the pages share, the phone rules and each language load as chunks of their own:
  // the booking widget fetches the phone rules and its one language when it needs them.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  target: ["es2020", "safari14"],
  jsx: "automatic",
  jsxImportSource: "preact",
  outdir: join(OUT, "widget"),
  logLevel: "warning",
});
// `/widget` serves widget.html (Workers assets drop the extension), keeping the query string.
copyFileSync("widget/index.html", join(OUT, "widget.html"));
// `/widget/manage` serves widget/manage.html the same way.
copyFileSync("widget/manage.html", join(OUT, "widget", "manage.html"));
copyFileSync("widget/offer.html", join(OUT, "widget", "offer.html"));
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
