// The shape of the modules (issue 31, decision 0116), run by `npm run lint`:
// - no import cycle among the modules of app/, server/ and scripts/, type imports and dynamic
//   imports included (dpdm walks the imports as TypeScript resolves them, tsconfig paths too);
// - no file in app/domain over MAX_DOMAIN_LINES lines: a domain module that grows past it is split
//   by what it does (docs/contributing.md).
// Each failure names the cycle (a → b → a) or the file and its length.
import fs from 'node:fs'
import path from 'node:path'
import { parseCircular, parseDependencyTree } from 'dpdm'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')

export const MAX_DOMAIN_LINES = 500
const SOURCES = ['app/**/*.{ts,tsx}', 'server/**/*.{ts,mjs}', 'scripts/**/*.{ts,mjs}']

/** Every import cycle reachable from `entries` (globs under `cwd`), each as its files in import order. */
export async function importCycles(entries = SOURCES, { cwd = root, tsconfig = path.join(cwd, 'tsconfig.json') } = {}) {
	const tree = await parseDependencyTree(entries, {
		cwd,
		context: cwd,
		tsconfig: fs.existsSync(tsconfig) ? tsconfig : undefined,
		// false: the type imports stay in the graph (a type-only cycle is a cycle too).
		transform: false,
		skipDynamicImports: false,
	})
	return parseCircular(tree, false)
}

/** The files under `dir` (recursively) longer than `max` lines, with their lengths, longest first. */
export function longFiles(dir = path.join(root, 'app/domain'), max = MAX_DOMAIN_LINES) {
	const found = []
	for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (!entry.isFile()) continue
		const file = path.join(entry.parentPath ?? entry.path, entry.name)
		const text = fs.readFileSync(file, 'utf8')
		const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
		if (lines > max) found.push({ file: path.relative(root, file), lines })
	}
	return found.sort((a, b) => b.lines - a.lines)
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const started = Date.now()
	const cycles = await importCycles()
	const long = longFiles()
	for (const cycle of cycles) console.error(`✖ import cycle: ${[...cycle, cycle[0]].join(' → ')}`)
	for (const { file, lines } of long) console.error(`✖ ${file} has ${lines} lines (at most ${MAX_DOMAIN_LINES} in app/domain: split it by what it does)`)
	if (cycles.length || long.length) process.exit(1)
	console.log(`✔ no import cycle, no domain file over ${MAX_DOMAIN_LINES} lines (${Date.now() - started} ms)`)
}
