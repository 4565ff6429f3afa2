import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { configDefaults, type Plugin } from "vitest/config";

const BUNDLE = "\0salon-src-bundle";
const MODULE = "\0salon-src:";

type Bundle = {
  code: string;
  map: string;
  /** Every source file of src/: its namespace's name in the bundle and its value exports. */
  files: Map<string, { name: string; exports: string[] }>;
};

/**
 * The workerd tests load src/ as ONE module instead of ~590. Every test file has a workerd of
 * its own, whose module runner fetches each module from Vite one at a time and evaluates it:
 * ~5 s of every file's set-up went to loading the app that way. Here esbuild bundles all of
 * src/ into one module (packages left as imports, so Vite's pre-bundled copies stay the only
 * ones), with each source file's namespace exported under a name of its own; an import of a
 * src/ file from a test, a helper or the pool (its `main`) is served a small module that
 * re-exports that file's bindings from the bundle. One instance of every src/ module, as
 * before: the tests' classes and the app's are the same objects.
 *
 * src/index.ts comes first in the bundle, so the app's modules run in the order they always
 * did. Re-exported bindings are read once the bundle has run (src/ has no `export let`).
 * Under `vitest` (watch) a change in src/ rebuilds the bundle and reruns every test file:
 * Vite's module graph no longer sees which src/ files a test reaches, and nearly every
 * workerd test reaches the whole app anyway.
 */
export function srcBundle(root: string): Plugin {
  const srcDir = path.join(root, "src");
  let bundle: Promise<Bundle> | undefined;
  const current = () => (bundle ??= buildBundle(srcDir));
  return {
    name: "salon:src-bundle",
    enforce: "pre",
    config: () => ({
      test: { forceRerunTriggers: [...configDefaults.forceRerunTriggers, `${srcDir}/**`] },
    }),
    configureServer(server) {
      server.watcher.on("all", (_event, file) => {
        if (!file.startsWith(srcDir + path.sep)) return;
        bundle = undefined;
        for (const environment of Object.values(server.environments)) {
          const graph = environment.moduleGraph;
          for (const id of [
            BUNDLE,
            ...[...graph.idToModuleMap.keys()].filter((k) => k.startsWith(MODULE)),
          ]) {
            const mod = graph.getModuleById(id);
            if (mod) graph.invalidateModule(mod);
          }
        }
      });
    },
    // The pre-bundled packages are sent without their source maps: a map with its sources'
    // text is ~3 times the code (stripe's alone 1.3 MB), and every file's workerd is sent every
    // package again. A stack trace through a package shows the pre-bundled file's lines.
    transform(code, id) {
      if (!/\/node_modules\/\.vite\/.*\/deps_ssr\//.test(id)) return null;
      return { code, map: { mappings: "" } };
    },
    async resolveId(source, importer, options) {
      if (source === BUNDLE || source.startsWith(MODULE)) return source;
      if (importer?.startsWith("\0") || !/^[./]/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return null;
      const file = resolved.id.split("?")[0] ?? "";
      if (!file.startsWith(srcDir + path.sep)) return null;
      if (!(await current()).files.has(file)) return null;
      return MODULE + file;
    },
    async load(id) {
      if (id === BUNDLE) {
        const { code, map } = await current();
        return { code, map };
      }
      if (!id.startsWith(MODULE)) return null;
      const file = (await current()).files.get(id.slice(MODULE.length));
      if (!file) return null;
      const lines = [`import { ${file.name} as ns } from ${JSON.stringify(BUNDLE)};`];
      for (const name of file.exports) {
        lines.push(
          name === "default"
            ? "export default ns.default;"
            : `const _${name} = ns.${name}; export { _${name} as ${name} };`,
        );
      }
      return lines.join("\n");
    },
  };
}

async function buildBundle(srcDir: string): Promise<Bundle> {
  const sources = fs
    .readdirSync(srcDir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts"))
    .map((f) => path.join(srcDir, f))
    .sort();
  const entry = path.join(srcDir, "index.ts");
  const ordered = [entry, ...sources.filter((f) => f !== entry)];
  const files = new Map<string, { name: string; exports: string[] }>();
  ordered.forEach((file, i) => files.set(file, { name: `m${i}`, exports: [] }));

  const common = {
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    packages: "external",
    external: ["cloudflare:*", "node:*"],
    write: false,
    logLevel: "silent",
    absWorkingDir: path.dirname(srcDir),
    tsconfig: path.join(srcDir, "..", "tsconfig.json"),
  } satisfies esbuild.BuildOptions;

  // The names each file exports (after its `export *`s), read from a split build's metafile.
  const names = await esbuild.build({
    ...common,
    entryPoints: ordered,
    splitting: true,
    metafile: true,
    outdir: path.join(srcDir, "..", ".src-bundle-names"),
    outbase: srcDir,
    minify: false,
  });
  for (const output of Object.values(names.metafile.outputs)) {
    if (!output.entryPoint) continue;
    const file = files.get(path.resolve(srcDir, "..", output.entryPoint));
    if (file) file.exports = output.exports;
  }

  const outfile = path.join(srcDir, "__bundle__.js");
  const result = await esbuild.build({
    ...common,
    stdin: {
      contents: ordered
        .map((file, i) => `export * as m${i} from ${JSON.stringify(file)};`)
        .join("\n"),
      resolveDir: srcDir,
      sourcefile: "__bundle_entry__.ts",
      loader: "ts",
    },
    outfile,
    sourcemap: "external",
    sourcesContent: false,
  });
  const code = result.outputFiles.find((f) => f.path.endsWith(".js"))?.text ?? "";
  // Stack traces point at the source files by their full paths; the map carries no sources'
  // text (Vitest reads the files for its code frames), which keeps it a third of the size.
  const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith(".map"))?.text ?? "{}");
  map.sources = (map.sources as string[]).map((source) => path.resolve(srcDir, source));
  map.sourcesContent = map.sources.map(() => "");
  return { code, map: JSON.stringify(map), files };
}
