// Compiles server/index.ts to server-build/index.js, and the operator's scripts (scripts/<name>.ts,
// run by `npm run db:migrate` and the rest through scripts/run.mjs) to server-build/scripts/<name>.js:
// a production install has no tsx, only Node and the packages. npm packages stay external.
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** The scripts an operator runs on a production install (README: "Scripts"). */
export const operatorScripts = ['db-migrate', 'db-seed', 'jobs', 'worker', 'admin-create', 'backup', 'restore']

const root = fileURLToPath(new URL('..', import.meta.url))
const common = { absWorkingDir: root, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true }

/** Each script one file (its lazily loaded modules inside it), so a rebuild of one leaves nothing stale. */
export async function buildScripts(names = operatorScripts, logLevel = 'info') {
	await build({ ...common, entryPoints: Object.fromEntries(names.map((name) => [name, `scripts/${name}.ts`])), outdir: 'server-build/scripts', logLevel })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	await build({ ...common, entryPoints: ['server/index.ts'], outfile: 'server-build/index.js', logLevel: 'info' })
	await buildScripts()
}
