/**
 * `npm run bench`: seeds a PostgreSQL database at scale (once; later runs reuse it), starts the
 * built portal on it and measures the median and 99th-percentile time of each suite's calls.
 * Not a test: run it by hand, on a quiet machine, and read the table.
 *
 *   npm run bench                       every suite
 *   npm run bench -- --suite directory  one suite
 *   npm run bench -- --case "list API"  only the cases whose name contains this
 *   npm run bench -- --reseed           rebuild the database first
 *   npm run bench -- --no-build         use the current build instead of building
 *   options: --duration 10 (s per case) --warmup 2 (s) --connections 1,4 --port 3230
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/autohub_bench) is created if missing.
 */
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { seedDatabase, staleSuites, withClient } from './lib/database'
import { measure } from './lib/measure'
import { printTable, type Row } from './lib/report'
import { buildPortal, startPortal } from './lib/server'
import { suites as allSuites } from './suites'

process.chdir(fileURLToPath(new URL('../..', import.meta.url)))

const { values } = parseArgs({
	options: {
		suite: { type: 'string', multiple: true },
		case: { type: 'string' },
		reseed: { type: 'boolean', default: false },
		'no-build': { type: 'boolean', default: false },
		duration: { type: 'string', default: '10' },
		warmup: { type: 'string', default: '2' },
		connections: { type: 'string', default: '1,4' },
		port: { type: 'string', default: process.env.BENCH_PORT ?? '3230' },
	},
})

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/autohub_bench'
const selected = values.suite?.length ? allSuites.filter((s) => values.suite!.includes(s.name)) : allSuites
if (!selected.length) {
	console.error(`No such suite. Suites: ${allSuites.map((s) => s.name).join(', ')}`)
	process.exit(1)
}
const connections = values.connections.split(',').map(Number).filter((n) => n > 0)
const log = (message: string) => console.log(`[bench] ${message}`)

// Seeding rebuilds the whole database, so every suite is seeded when any is stale.
const stale = values.reseed ? allSuites : await staleSuites(databaseUrl, allSuites)
if (stale.length) {
	log(`seeding ${databaseUrl.replace(/\/\/[^@]*@/, '//')} (${stale.map((s) => s.name).join(', ')} missing or out of date); this takes a few minutes`)
	await seedDatabase(databaseUrl, allSuites, log)
} else {
	log('reusing the seeded database (--reseed to rebuild it)')
}

if (!values['no-build']) {
	log('building the portal')
	buildPortal(true)
}
log('starting the portal')
const portal = await startPortal(databaseUrl, Number(values.port))
const rows: Row[] = []
const ratios: string[] = []
try {
	for (const suite of selected) {
		log(`${suite.name}: ${suite.description}`)
		const cases = (await withClient(databaseUrl, (client) => suite.cases(client))).filter(
			(c) => !values.case || c.name.includes(values.case),
		)
		for (const benchCase of cases) {
			const results = []
			for (const c of connections) {
				results.push(await measure(portal.url, benchCase, { connections: c, duration: Number(values.duration), warmup: Number(values.warmup) }))
			}
			const row = { suite: suite.name, name: benchCase.name, results }
			rows.push(row)
			log(`${benchCase.name}: ${results.map((r) => `${r.connections}c p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.rps.toFixed(0)} req/s${r.errors ? `, ${r.errors} errors` : ''}`).join('; ')}`)
			if (suite.baseline) {
				const bare = await suite.baseline.start(databaseUrl, Number(values.port) + 1, benchCase, portal.url)
				try {
					const bareResults: Awaited<ReturnType<typeof measure>>[] = []
					for (const c of connections) {
						bareResults.push(await measure(bare.url, benchCase, { connections: c, duration: Number(values.duration), warmup: Number(values.warmup) }))
					}
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
	}
} finally {
	await portal.stop()
}

console.log('')
printTable(rows, connections)
if (ratios.length) console.log(`\n${ratios.join('\n')}`)
if (rows.some((row) => row.results.some((r) => r.errors > 0))) {
	console.log('\nSome requests failed (not 2xx): see the errors column.')
	process.exitCode = 1
}
