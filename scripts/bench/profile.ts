/**
 * `npx tsx scripts/bench/profile.ts <suite> <case substring> [seconds]`: runs the built portal on the
 * bench database under `node --cpu-prof`, sends the first case whose name contains the substring
 * (as the bench's `--case` chooses) for a while, and leaves the profile in ./profiles (open it in
 * Chrome's DevTools). For finding where a case's time goes.
 */
import { fileURLToPath } from 'node:url'
import { withClient } from './lib/database'
import { measure } from './lib/measure'
import { chosenCase } from './lib/options'
import { startPortal } from './lib/server'
import { suites } from './suites'

process.chdir(fileURLToPath(new URL('../..', import.meta.url)))
const [suiteName, caseName, seconds = '8'] = process.argv.slice(2)
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/autohub_bench'
const suite = suites.find((s) => s.name === suiteName)
if (!suite) throw new Error(`No such suite. Suites: ${suites.map((s) => s.name).join(', ')}`)
const benchCase = (await withClient(databaseUrl, (client) => suite.cases(client))).find((c) => chosenCase(c.name, caseName ? [caseName] : []))
if (!benchCase) throw new Error('No such case')
// As the bench runs the portal: the background jobs (the seeded outbox's e-mails) elsewhere, not in the profile.
const portal = await startPortal(databaseUrl, Number(process.env.BENCH_PORT ?? 3230), { nodeArgs: ['--cpu-prof', '--cpu-prof-dir=profiles'], env: { RUN_JOBS: 'false' } })
try {
	const result = await measure(portal.url, benchCase, { connections: 10, duration: Number(seconds), warmup: 1 })
	console.log(`${benchCase.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, ${result.errors} errors; profile in ./profiles`)
} finally {
	await portal.stop()
}
