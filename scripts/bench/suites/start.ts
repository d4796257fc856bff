import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { EMBEDDED_JOBS_DELAY_MS, embeddedDirectory, embeddedStartParams } from '~/db/embedded-database.server'
import { median, printFigures } from '../lib/report'
import { firstOk, languageCookie, spawnNode } from '../lib/server'
import { type BenchFigure, type BenchProcessSuite } from '../types'

/**
 * The embedded start (issue 18, goal 6): `npm start` with no DATABASE_URL, on PGlite in a
 * DATA_DIR of its own. Once on a new directory (migrations and demo data), then `runs` times
 * reopening it: the time from the process's spawn to the first 200 of `/` and of `/readyz`, the
 * CPU time it took until then, and its resident memory (the whole process tree) after the public
 * pages, each three times in each language, and the background jobs' first runs. The baseline is a bare Node process opening the same
 * directory with PGlite, started the same way, answering one query over node:http (the floor of an
 * embedded start); the two take turns, on the same port. Its cases: `new DATA_DIR` and `reopen`.
 * `--portal <checkout>`: that checkout's `npm start` (its build); the baseline is this checkout's.
 */
const LANGUAGES = ['et', 'en', 'ru']
/** The baseline's script, this checkout's whichever portal is measured. */
const BARE_PGLITE = fileURLToPath(new URL('../lib/bare-pglite.mjs', import.meta.url))

/** The pids of a process and its descendants. */
function tree(pid: number): number[] {
	let children: number[] = []
	try {
		children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
	} catch {
		// Gone, or no such file on this system.
	}
	return [pid, ...children.flatMap(tree)]
}

/** Resident memory of the process tree, MB (VmRSS). */
function residentMb(pid: number) {
	let kb = 0
	for (const p of tree(pid)) {
		const match = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))
		kb += Number(match?.[1] ?? 0)
	}
	return kb / 1024
}

/** CPU time (user and system) of the process tree so far, ms. */
function cpuMs(pid: number) {
	let ticks = 0
	for (const p of tree(pid)) {
		const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
		ticks += Number(fields[11]) + Number(fields[12])
	}
	return (ticks * 1000) / 100 // USER_HZ is 100 on Linux
}

async function get(url: string, headers: Record<string, string>) {
	const response = await fetch(url, { headers })
	const body = await response.text()
	if (response.status !== 200) throw new Error(`${url}: ${response.status}`)
	return body
}

type Run = { first: number; health: number; cpu: number; rss: number }

/** `npm start` of the checkout in `checkout`, on `dataDir`. */
async function portalRun(checkout: string, dataDir: string, port: number): Promise<Run> {
	const url = `http://127.0.0.1:${port}`
	const portal = spawnNode(['scripts/start.mjs'], {
		cwd: checkout,
		env: {
			DATA_DIR: dataDir,
			PORT: String(port),
			HOST: '127.0.0.1',
			APP_URL: url,
			LOG_LEVEL: 'warn',
			NODE_ENV: 'production',
			// The embedded defaults, whatever the shell says: PGlite, files on disk, demo data, no SMTP.
			DATABASE_URL: '',
			S3_BUCKET: '',
			SEED_DEMO_DATA: '',
			SMTP_URL: '',
			SESSION_SECRET: '',
		},
	})
	try {
		const [first, health] = await Promise.all([firstOk(portal, `${url}/`, { headers: { Cookie: languageCookie('en') } }), firstOk(portal, `${url}/readyz`)])
		const cpu = cpuMs(portal.child.pid!)
		const list = await get(`${url}/workshop-list`, { Cookie: languageCookie('en') })
		const workshop = /\/workshop-details\/([A-Za-z0-9_-]+)/.exec(list)?.[0]
		if (!workshop) throw new Error('no workshop on the list page')
		const pages = ['/', '/workshop-list', workshop, '/cities', '/contact-us', '/about', '/terms-conditions', '/privacy-poicy']
		for (let round = 0; round < 3; round++) {
			for (const language of LANGUAGES) for (const page of pages) await get(`${url}${page}`, { Cookie: languageCookie(language) })
		}
		// Read once the background jobs' first runs are done too (they wait EMBEDDED_JOBS_DELAY_MS).
		await new Promise((resolve) => setTimeout(resolve, Math.max(500, EMBEDDED_JOBS_DELAY_MS + 5_000 - (performance.now() - portal.spawnedAt))))
		return { first, health, cpu, rss: residentMb(portal.child.pid!) }
	} finally {
		await portal.stop()
	}
}

async function baselineRun(dataDir: string, port: number): Promise<Run> {
	const url = `http://127.0.0.1:${port}`
	const bare = spawnNode([BARE_PGLITE, embeddedDirectory(dataDir), String(port), JSON.stringify(embeddedStartParams())])
	try {
		const first = await firstOk(bare, url)
		const cpu = cpuMs(bare.child.pid!)
		// As many answers as the portal's run sends pages.
		for (let i = 0; i < 3 * LANGUAGES.length * 8; i++) await get(url, {})
		await new Promise((resolve) => setTimeout(resolve, 500))
		return { first, health: first, cpu, rss: residentMb(bare.child.pid!) }
	} finally {
		await bare.stop()
	}
}

const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`

const NEW = 'new DATA_DIR'
const REOPEN = 'reopen'
const BASELINE = 'bare node + PGlite on the same DATA_DIR, one query over node:http'

export const startSuite: BenchProcessSuite = {
	name: 'start',
	description: 'npm start on the embedded database: a new DATA_DIR once, then reopening it',
	cases: [NEW, REOPEN],
	async run({ cases, port, runs, portal: checkout, log }) {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-bench-start-'))
		const bareDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-bench-start-bare-'))
		try {
			const figures: BenchFigure[] = []
			// The reopening needs a directory made by a first start: it is made even when only the reopening is measured.
			if (!cases.includes(NEW)) log(`making a ${NEW} to reopen (not measured: --case chose the reopening only)`)
			const fresh = await portalRun(checkout, dataDir, port)
			if (cases.includes(NEW)) {
				const bareFresh = await baselineRun(bareDir, port)
				log(`${NEW}: first answer after ${fresh.first.toFixed(0)} ms (bare PGlite making a new one: ${bareFresh.first.toFixed(0)} ms), ${fresh.rss.toFixed(0)} MB`)
				figures.push(
					{ name: `${NEW}: first answer of /`, unit: 'ms', value: fresh.first, baseline: bareFresh.first },
					{ name: `${NEW}: resident after the public pages`, unit: 'MB', value: fresh.rss, baseline: bareFresh.rss },
				)
			}
			if (cases.includes(REOPEN)) {
				const portal: Run[] = []
				const bare: Run[] = []
				for (let i = 0; i < runs; i++) {
					portal.push(await portalRun(checkout, dataDir, port))
					bare.push(await baselineRun(dataDir, port))
					log(`${REOPEN} ${i + 1}/${runs}: first answer ${portal.at(-1)!.first.toFixed(0)} ms (bare ${bare.at(-1)!.first.toFixed(0)} ms), ${portal.at(-1)!.rss.toFixed(0)} MB (bare ${bare.at(-1)!.rss.toFixed(0)} MB)`)
				}
				const figure = (name: string, unit: BenchFigure['unit'], pick: (run: Run) => number): BenchFigure => ({
					name: `${REOPEN}: ${name}`,
					unit,
					value: median(portal.map(pick)),
					baseline: median(bare.map(pick)),
					spread: spread(portal.map(pick)),
					baselineSpread: spread(bare.map(pick)),
				})
				figures.push(
					figure('first answer of /', 'ms', (run) => run.first),
					figure('first 200 of /readyz', 'ms', (run) => run.health),
					figure('CPU time until the first answer', 'ms', (run) => run.cpu),
					figure('resident after the public pages', 'MB', (run) => run.rss),
				)
			}
			console.log('')
			printFigures('start', BASELINE, figures)
			return { failed: false }
		} finally {
			fs.rmSync(dataDir, { recursive: true, force: true })
			fs.rmSync(bareDir, { recursive: true, force: true })
		}
	},
}
