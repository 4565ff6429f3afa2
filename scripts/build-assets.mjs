// Builds the Worker's static assets into dist/assets (gitignored; wrangler.toml [assets]):
// the booking widget (widget/, bundled by esbuild) and Scalar's browser bundle for /docs,
// so neither page loads anything from another host.
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";

const TARGET = "dist/assets";
// Built beside the target and swapped in at the end, so a running `wrangler dev` or test
// pool never sees the folder missing for more than an instant.
const OUT = `${TARGET}.next`;

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, "widget"), { recursive: true });
mkdirSync(join(OUT, "docs"), { recursive: true });

const built = await build({
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
  metafile: true,
});

/**
 * The page with a modulepreload hint for each chunk its entry imports statically: the browser
 * fetches them beside the entry instead of finding them only once it has parsed it (chunks
 * imported on demand, the phone rules and the other languages, are left to load when asked).
 */
function withPreloads(page, entry) {
  const out = Object.entries(built.metafile.outputs).find(([file]) =>
    file.endsWith(`/widget/${entry}.js`),
  );
  if (!out) throw new Error(`no output for ${entry}`);
  const links = out[1].imports
    .filter((i) => i.kind === "import-statement")
    .map(
      (i) =>
        `    <link rel="modulepreload" href="/widget/${relative(join(OUT, "widget"), i.path)}" />`,
    );
  const html = readFileSync(page, "utf8");
  const script = `    <script type="module" src="/widget/${entry}.js"></script>`;
  if (!html.includes(script)) throw new Error(`${page} loads no /widget/${entry}.js`);
  return html.replace(script, [...links, script].join("\n"));
}
// `/widget` serves widget.html (Workers assets drop the extension), keeping the query string.
writeFileSync(join(OUT, "widget.html"), withPreloads("widget/index.html", "app"));
// `/widget/manage` serves widget/manage.html the same way.
writeFileSync(join(OUT, "widget", "manage.html"), withPreloads("widget/manage.html", "manage"));
writeFileSync(join(OUT, "widget", "offer.html"), withPreloads("widget/offer.html", "offer"));
copyFileSync("widget/styles.css", join(OUT, "widget", "app.css"));

// The read-only reports dashboard's charts (Chart.js and its matrix chart, bundled: the page
// loads nothing from another host). Served at /dashboard/dashboard.js; the page itself is the
// Worker's (/dashboard, no file of that name here).
mkdirSync(join(OUT, "dashboard"), { recursive: true });
await build({
  entryPoints: { dashboard: "dashboard/main.ts" },
  bundle: true,
  minify: true,
  sourcemap: true,
  format: "esm",
  target: ["es2020", "safari14"],
  outdir: join(OUT, "dashboard"),
  logLevel: "warning",
});
copyFileSync("dashboard/styles.css", join(OUT, "dashboard", "dashboard.css"));

// The UMD standalone bundle: one file, no lazily imported chunks.
// The package exports no path to it, hence the node_modules path.
copyFileSync(
  "node_modules/@scalar/api-reference/dist/browser/standalone.js",
  join(OUT, "docs", "scalar.js"),
);

rmSync(TARGET, { recursive: true, force: true });
renameSync(OUT, TARGET);
console.log(`assets built in ${TARGET}`);
