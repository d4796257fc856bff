/**
 * `npm run bench`: seeds a PostgreSQL database at scale (once; later runs reuse it), starts the
 * built portal on it and measures the median and 99th-percentile time of each request suite's
 * calls, each beside a bare server's; then runs the process suites, which start what they measure
 * themselves (the embedded start; Lighthouse on the demo data). Not a test: run it by hand, on a
 * quiet machine, and read the tables. `npm run bench -- --help` lists the options (lib/options.ts).
 *
 *   npm run bench                          every suite
 *   npm run bench -- --suite directory     one suite (repeat --suite for more)
 *   npm run bench -- --case "list API"     only the cases whose name contains this, in every suite
 *   npm run bench -- --reseed              rebuild the database first
 *   npm run bench -- --no-build            measure the current build instead of building
 *   npm run bench -- --suite free-times    a workshop's free times for 14 days (freeTimes in process, 10,000 calendars) beside its bare queries
 *   npm run bench -- --suite price-ranges  1,000,000 more jobs (added once): the usual prices' recomputation timed, the price pages beside the city pages
 *   npm run bench -- --suite peak          the busiest hour's mix open loop at rising rates: browsers held, beside a bare poll server's
 *   npm run bench -- --suite javascript    each page's JavaScript (gzip) beside its target; --compare-with another build
 *   npm run bench -- --suite start         the embedded start: time to the first answer, memory (--runs reopenings)
 *   npm run bench -- --suite lighthouse    Lighthouse mobile on four pages, --runs times each (no database needed)
 *            --case home --case contact (its pages) --compare-with ../other-checkout (its build, same run)
 *   npm run bench -- --portal ../before    another checkout's build instead, in every suite (a "before" in the same session)
 *   npm run bench -- --suite peak --profile   the same, the portal under node --cpu-prof (./profiles)
 *   options: --duration 10 (s per case) --warmup 2 (s) --connections 1,4 --port 3230 --runs 3
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/autohub_bench) is created if missing.
 */
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { seedAddedSuites, seedDatabase, staleSuites, withClient } from './lib/database'
import { measure, type Measurement } from './lib/measure'
import { type BenchOptions, chosenCase, parseBenchOptions, USAGE, UsageError } from './lib/options'
import { printTable, type Row } from './lib/report'
import { buildPortal, startPortal } from './lib/server'
import { processSuites, suites as requestSuites } from './suites'
import { type BenchCase, type BenchProcessSuite, type BenchSuite } from './types'

const root = fileURLToPath(new URL('../..', import.meta.url))
process.chdir(root)

/** Stops with what is wrong in the options, before anything starts. */
function refuse(message: string): never {
	console.error(`${message}\n\n${USAGE}`)
	process.exit(2)
}

let options: BenchOptions
try {
	options = parseBenchOptions(process.argv.slice(2))
} catch (error) {
	if (!(error instanceof UsageError)) throw error
	refuse(error.message)
}
if (options.help) {
	console.log(USAGE)
	process.exit(0)
}

const names = [...requestSuites, ...processSuites].map((s) => s.name)
const unknown = options.suites.filter((name) => !names.includes(name))
if (unknown.length) refuse(`No such suite: ${unknown.join(', ')}. Suites: ${names.join(', ')}`)
const isSelected = (suite: { name: string }) => !options.suites.length || options.suites.includes(suite.name)
const selectedRequestSuites = requestSuites.filter(isSelected)
// A process suite's cases are known before anything starts: one with none chosen is not run at all.
const selectedProcessSuites: Array<{ suite: BenchProcessSuite; cases: string[] }> = []
for (const suite of processSuites.filter(isSelected)) {
	const cases = suite.cases.filter((name) => chosenCase(name, options.cases))
	if (cases.length) selectedProcessSuites.push({ suite, cases })
	else console.log(`[bench] ${suite.name}: no case matches --case (its cases: ${suite.cases.join(', ')})`)
}
if (!selectedRequestSuites.length && !selectedProcessSuites.length) refuse('Nothing to measure: no case of the chosen suites matches --case.')

/** A checkout given by --portal or --compare-with: absolute (relative to this one), and built. */
function checkout(option: string, dir: string) {
	const absolute = path.resolve(root, dir)
	if (!existsSync(absolute) || !statSync(absolute).isDirectory()) refuse(`--${option} ${dir}: no such directory (${absolute})`)
	if (!existsSync(path.join(absolute, 'server-build/index.js')) || !existsSync(path.join(absolute, 'build/server/index.js'))) {
		refuse(`--${option} ${dir}: no build there; build it first (cd ${absolute} && npm run build)`)
	}
	return absolute
}
/** --profile: the request suites' portal under Node's CPU profiler, written to ./profiles when it stops. */
const profiling = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'profiles')}`] : []
const portalDir = options.portal ? checkout('portal', options.portal) : root
const compareWith = options.compareWith ? checkout('compare-with', options.compareWith) : undefined
if (compareWith) {
	const cannot = [...selectedRequestSuites, ...selectedProcessSuites.map(({ suite }) => suite).filter((suite) => !suite.compares)].map((s) => s.name)
	if (cannot.length) refuse(`--compare-with applies to the javascript and lighthouse suites only, not to ${cannot.join(', ')}: choose them with --suite`)
}

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/autohub_bench'
const log = (message: string) => console.log(`[bench] ${message}`)

// A suite measured in this process (free-times) needs no build.
const needsPortal = selectedRequestSuites.some((suite) => !suite.direct) || selectedProcessSuites.length > 0
if (options.portal) log(`measuring the build in ${portalDir}`)
else if (options.build && needsPortal) {
	log('building the portal')
	buildPortal()
}

let measured = false
if (selectedRequestSuites.length) await requestSuitesRun(selectedRequestSuites)
for (const { suite, cases } of selectedProcessSuites) await processSuiteRun(suite, cases)
if (!measured) {
	// Only the request suites' cases (read from the seeded data) can all be left out this late.
	console.error(`\nNothing was measured: no case matches${options.cases.map((text) => ` --case ${JSON.stringify(text)}`).join('')}.`)
	process.exitCode = 1
}

/** Each case at each concurrency level, against the server at `url`. */
async function measureCase(url: string, benchCase: BenchCase): Promise<Measurement[]> {
	const results = []
	for (const connections of options.connections) {
		results.push(await measure(url, benchCase, { connections, duration: options.duration, warmup: options.warmup }))
	}
	return results
}

/** The request suites: requests under load against the portal on the seeded bench database, each case beside its suite's baseline. */
async function requestSuitesRun(selected: BenchSuite[]) {
	// Seeding rebuilds the whole database, so every suite is seeded when any is stale.
	const stale = options.reseed ? requestSuites : await staleSuites(databaseUrl, requestSuites)
	if (stale.length) {
		log(`seeding ${databaseUrl.replace(/\/\/[^@]*@/, '//')} (${stale.map((s) => s.name).join(', ')} missing or out of date); this takes a few minutes`)
		await seedDatabase(databaseUrl, requestSuites, log)
	} else {
		log('reusing the seeded database (--reseed to rebuild it)')
	}
	// A suite added after the database was seeded brings its data now, once.
	await seedAddedSuites(databaseUrl, selected, log)

	// The cases come from the seeded data; --case chooses among them before the portal starts.
	const chosen: Array<{ suite: BenchSuite; cases: BenchCase[] }> = []
	for (const suite of selected) {
		const all = await withClient(databaseUrl, (client) => suite.cases(client))
		const cases = all.filter((c) => chosenCase(c.name, options.cases))
		if (cases.length) chosen.push({ suite, cases })
		else log(`${suite.name}: no case matches --case (its cases: ${all.map((c) => c.name).join('; ')})`)
	}
	if (!chosen.length) return
	const measuredAlone = chosen.filter(({ suite }) => !suite.drive && !suite.direct)
	if (measuredAlone.length) await caseSuitesRun(measuredAlone)
	for (const { suite, cases } of chosen.filter(({ suite }) => suite.direct)) await directSuiteRun(suite, cases)
	for (const { suite, cases } of chosen.filter(({ suite }) => suite.drive)) await driveSuiteRun(suite, cases)
}

/** A suite that calls the server code in this process (free-times): no portal; it prints its own figures. */
async function directSuiteRun(suite: BenchSuite, cases: BenchCase[]) {
	log(`${suite.name}: ${suite.description}`)
	const { failed } = await suite.direct!({
		databaseUrl,
		cases,
		connections: options.connections,
		duration: options.duration,
		warmup: options.warmup,
		log: (message) => log(`${suite.name}: ${message}`),
	})
	measured = true
	if (failed) {
		console.log(`\n${suite.name}: short of its goal (see above).`)
		process.exitCode = 1
	}
}

/** A suite that sends its cases together (peak): on a portal of its own, freshly started; it prints its own figures. */
async function driveSuiteRun(suite: BenchSuite, cases: BenchCase[]) {
	log(`${suite.name}: ${suite.description}`)
	// A web process of the capacity plan: the e-mails the mix's writes queue are a worker's job.
	log('starting the portal (RUN_JOBS=false)')
	const portal = await startPortal(databaseUrl, options.port, { cwd: portalDir, nodeArgs: profiling, env: { RUN_JOBS: 'false' } })
	let failed: boolean
	try {
		;({ failed } = await suite.drive!({
			portalUrl: portal.url,
			databaseUrl,
			cases,
			connections: options.connections,
			duration: options.duration,
			warmup: options.warmup,
			baselinePort: options.port + 1,
			log: (message) => log(`${suite.name}: ${message}`),
		}))
	} finally {
		await portal.stop()
	}
	measured = true
	if (failed) {
		console.log(`\n${suite.name}: short of its goal (see above).`)
		process.exitCode = 1
	}
}

/** The suites whose cases are each measured on their own under autocannon, beside their baselines. */
async function caseSuitesRun(chosen: Array<{ suite: BenchSuite; cases: BenchCase[] }>) {
	log('starting the portal')
	const portal = await startPortal(databaseUrl, options.port, { cwd: portalDir, nodeArgs: profiling })
	const rows: Row[] = []
	const ratios: string[] = []
	try {
		for (const { suite, cases } of chosen) {
			log(`${suite.name}: ${suite.description}`)
			for (const benchCase of cases) {
				const results = await measureCase(portal.url, benchCase)
				rows.push({ suite: suite.name, name: benchCase.name, results })
				log(`${benchCase.name}: ${results.map((r) => `${r.connections}c p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.rps.toFixed(0)} req/s${r.errors ? `, ${r.errors} errors` : ''}`).join('; ')}`)
				if (!suite.baseline) continue
				const bare = await suite.baseline.start(databaseUrl, options.port + 1, benchCase, portal.url)
				try {
					const bareResults = await measureCase(bare.url, benchCase)
					rows.push({ suite: suite.name, name: `${benchCase.name} — ${suite.baseline.label}`, results: bareResults })
					ratios.push(
						`${benchCase.name}: portal / ${suite.baseline.label} = ` +
							results
								.map((r, i) => `${r.connections}c p50 ×${(r.p50 / Math.max(bareResults[i]!.p50, 0.01)).toFixed(2)}, req/s ×${(r.rps / Math.max(bareResults[i]!.rps, 1)).toFixed(2)}`)
								.join('; '),
					)
				} finally {
					await bare.stop()
				}
			}
		}
	} finally {
		await portal.stop()
	}
	measured = true

	console.log('')
	printTable(rows, options.connections)
	if (ratios.length) console.log(`\n${ratios.join('\n')}`)
	if (rows.some((row) => row.results.some((r) => r.errors > 0))) {
		console.log('\nSome requests failed (not 2xx): see the errors column.')
		process.exitCode = 1
	}
}

/** A process suite, on the cases --case chose; it prints its own figures. */
async function processSuiteRun(suite: BenchProcessSuite, cases: string[]) {
	log(`${suite.name}: ${suite.description}`)
	const { failed } = await suite.run({
		cases,
		runs: options.runs,
		port: options.port,
		portal: portalDir,
		compareWith: suite.compares ? compareWith : undefined,
		log: (message) => log(`${suite.name}: ${message}`),
	})
	measured = true
	if (failed) {
		console.log(`\n${suite.name}: short of its goal (see above).`)
		process.exitCode = 1
	}
}
