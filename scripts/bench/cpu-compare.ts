/**
 * `npx tsx scripts/bench/cpu-compare.ts <other checkout> [rounds] [seconds]`: this checkout's build and
 * another's, both running at once on the bench database, each case sent to them in alternating
 * rounds; prints the CPU time each process spent per answer (from /proc), which a loaded machine
 * moves far less than requests per second. For comparing two builds on a shared machine.
 * Each case cycles through its first 200 requests, sent once to each process before the rounds.
 * A fourth argument chooses the cases by the start of their names, comma-separated; the peak
 * suite's kinds are cases too ("poll,signed-in page": the bell's poll by cookie and CSRF token).
 */
import { readFileSync } from 'node:fs'
import { execSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { withClient } from './lib/database'
import { measure } from './lib/measure'
import { startPortal } from './lib/server'
import { suites } from './suites'

process.chdir(fileURLToPath(new URL('../..', import.meta.url)))
const [other, roundsText = '3', secondsText = '4', casesText] = process.argv.slice(2)
if (!other) throw new Error('usage: cpu-compare.ts <other checkout> [rounds] [seconds] [case,case…]')
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/autohub_bench'
const wanted = casesText?.split(',') ?? ['get-notification poll', 'home page (anonymous)', 'list page (anonymous)', 'workshop page (anonymous', "customer's dashboard", 'compare offers']
const cases = (
	await withClient(databaseUrl, async (client) => (await Promise.all(suites.filter((s) => ['notifications', 'pages', 'signed-in', 'peak'].includes(s.name)).map((s) => s.cases(client)))).flat())
).filter((c) => wanted.some((w) => c.name.startsWith(w)) && !c.name.includes('bare'))
const WARM_SET = 200
const ticks = Number(execSync('getconf CLK_TCK').toString())
const cpuMs = (pid: number) => {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks
}
const pidOn = (port: number) => Number(/pid=(\d+)/.exec(execSync(`ss -ltnpH 'sport = :${port}'`).toString())![1])
const builds = [
	{ name: 'this', cwd: process.cwd(), port: 3261 },
	{ name: path.basename(path.resolve(other)), cwd: path.resolve(other), port: 3262 },
]
const portals = await Promise.all(builds.map((b) => startPortal(databaseUrl, b.port, { cwd: b.cwd, env: { RUN_JOBS: 'false' } })))
try {
	const pids = builds.map((b) => pidOn(b.port))
	for (const everyRequest of cases) {
		// A few hundred of the case's requests, each sent once before the rounds: a process an hour into
		// the day has seen its browsers (the bell's and the session's caches are warm), as in the peak suite.
		const benchCase = { ...everyRequest, requests: everyRequest.requests.slice(0, WARM_SET) }
		for (const portal of portals) await measure(portal.url, benchCase, { connections: 4, duration: Math.ceil(WARM_SET / 40), warmup: 0 })
		const totals = builds.map(() => ({ cpu: 0, answers: 0 }))
		for (let round = 0; round < Number(roundsText); round++) {
			for (const [i, portal] of portals.entries()) {
				const before = cpuMs(pids[i]!)
				const result = await measure(portal.url, benchCase, { connections: 4, duration: Number(secondsText), warmup: 1 })
				totals[i]!.cpu += cpuMs(pids[i]!) - before
				// The warm-up's answers are counted in the CPU too: about a second's worth.
				totals[i]!.answers += result.rps * (Number(secondsText) + 1)
			}
		}
		console.log(`${benchCase.name}: ` + builds.map((b, i) => `${b.name} ${(totals[i]!.cpu / totals[i]!.answers).toFixed(2)} ms CPU per answer`).join(', ') + `, ratio ${((totals[1]!.cpu / totals[1]!.answers) / (totals[0]!.cpu / totals[0]!.answers)).toFixed(2)}`)
	}
} finally {
	await Promise.all(portals.map((p) => p.stop()))
}
