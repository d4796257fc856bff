// The JavaScript the browser gets (issue 18, goal 3), checked after `react-router build`:
// - no server-only code in any client chunk (the database schema, Drizzle, the PostgreSQL
//   drivers): one appearing fails the build;
// - each page's JavaScript (the manifest, the entry, and the modules of the page's route and of
//   its parents, with their imports: what a first visit downloads) gzipped, printed, and held to
//   the page's budget in scripts/client-js-budgets.json; over budget fails the build. A page with
//   no budget of its own has its area's (public or signed-in).
// `node scripts/check-client-js.mjs --write` records today's sizes, each rounded up to the next KB plus 2 KB of room,
// as the budgets (after a change that is meant to grow a page).
import fs from 'node:fs'
import path from 'node:path'
import { gzippedSize, kilobytes } from '../widgets/budget.mjs'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const client = path.join(root, 'build/client')
const budgetFile = path.join(root, 'scripts/client-js-budgets.json')

/** Text that only server code contains: Drizzle's table symbols, its PostgreSQL column builders, the drivers. */
export const SERVER_ONLY = [/drizzle:(Name|Columns|IsDrizzleTable)/, /\bPgEnumColumn\b/, /@electric-sql\/pglite/, /pg-protocol/, /\bnode:(fs|crypto|child_process)\b/]

export function serverOnlyFindings(dir = client) {
	const findings = []
	for (const file of fs.readdirSync(path.join(dir, 'assets'))) {
		if (!file.endsWith('.js')) continue
		const code = fs.readFileSync(path.join(dir, 'assets', file), 'utf8')
		for (const pattern of SERVER_ONLY) if (pattern.test(code)) findings.push(`${file}: ${pattern}`)
	}
	return findings
}

/** Each page route's JavaScript on a first visit, gzipped bytes, by route id. */
export function pageSizes(dir = client) {
	const manifestFile = fs.readdirSync(path.join(dir, 'assets')).find((file) => /^manifest-.*\.js$/.test(file))
	if (!manifestFile) throw new Error('no route manifest in build/client/assets: build first')
	const manifestCode = fs.readFileSync(path.join(dir, 'assets', manifestFile), 'utf8')
	const manifest = JSON.parse(manifestCode.slice(manifestCode.indexOf('{'), manifestCode.lastIndexOf('}') + 1))
	const sizes = new Map()
	const sizeOf = (file) => {
		if (!sizes.has(file)) sizes.set(file, gzippedSize(fs.readFileSync(path.join(dir, file))))
		return sizes.get(file)
	}
	const pages = {}
	for (const [id, route] of Object.entries(manifest.routes)) {
		// A page has an address and a component: not the root or a pathless layout, and not a
		// resource route (its client module is empty, no default export).
		if (id === 'root' || (route.path === undefined && !route.index)) continue
		if (!/\bas default\b|export default/.test(fs.readFileSync(path.join(dir, route.module), 'utf8'))) continue
		const files = new Set([`assets/${manifestFile}`, manifest.entry.module, ...manifest.entry.imports])
		for (let current = route; current; current = manifest.routes[current.parentId]) {
			files.add(current.module)
			for (const imported of current.imports ?? []) files.add(imported)
		}
		pages[id] = [...files].reduce((sum, file) => sum + sizeOf(file.replace(/^\//, '')), gzippedSize(''))
	}
	return pages
}

export const areaOf = (id) => (/^routes\/_app\b/.test(id) ? 'signedIn' : 'public')

export function overBudget(pages, budgets) {
	return Object.entries(pages)
		.map(([id, bytes]) => ({ id, bytes, budget: budgets.pages[id] ?? budgets.areas[areaOf(id)] }))
		.filter((page) => page.bytes > page.budget)
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const findings = serverOnlyFindings()
	if (findings.length) {
		console.error(`✖ server-only code in the browser's JavaScript:\n  ${findings.join('\n  ')}`)
		process.exit(1)
	}
	const pages = pageSizes()
	if (process.argv.includes('--write')) {
		const budgets = JSON.parse(fs.readFileSync(budgetFile, 'utf8'))
		budgets.pages = Object.fromEntries(Object.entries(pages).sort().map(([id, bytes]) => [id, Math.ceil(bytes / 1024) * 1024 + 2048]))
		fs.writeFileSync(budgetFile, `${JSON.stringify(budgets, null, '\t')}\n`)
		console.log(`recorded ${Object.keys(pages).length} pages' budgets in ${path.relative(root, budgetFile)}`)
	}
	const budgets = JSON.parse(fs.readFileSync(budgetFile, 'utf8'))
	const largest = Object.entries(pages).sort((a, b) => b[1] - a[1])
	console.log(`client JavaScript per page, gzipped (largest first; areas: public ${kilobytes(budgets.areas.public)}, signed-in ${kilobytes(budgets.areas.signedIn)}):`)
	for (const [id, bytes] of largest.slice(0, 8)) console.log(`  ${kilobytes(bytes).padStart(9)}  ${id}`)
	console.log(`  … ${largest.length} pages, the smallest ${kilobytes(largest.at(-1)[1])}`)
	const over = overBudget(pages, budgets)
	if (over.length) {
		console.error(`✖ over budget:\n${over.map((page) => `  ${page.id}: ${kilobytes(page.bytes)} > ${kilobytes(page.budget)}`).join('\n')}`)
		process.exit(1)
	}
}
