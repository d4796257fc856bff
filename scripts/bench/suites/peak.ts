import { createHash } from 'node:crypto'
import { availableParallelism as availableCores, loadavg } from 'node:os'
import autocannon from 'autocannon'
import type pg from 'pg'
import { encodeId } from '../../../app/utils/public-id'
import { signedInBrowser } from '../lib/browser'
import { asBrowserSends } from '../lib/measure'
import { driveOpenLoop, type DrivenRequest } from '../lib/open-loop'
import {
	BROWSER_STEPS,
	browsersOfPolls,
	heldBrowsers,
	KINDS,
	kindFigures,
	type Kind,
	mixRates,
	P99_BOUND_MS,
	percentile,
	type Planned,
	schedule,
	verdict,
} from '../lib/peak-mix'
import { printColumns } from '../lib/report'
import { firstOk, spawnNode } from '../lib/server'
import { seedingSession } from '../lib/seed'
import { type BenchCase, type BenchSuite, type DriveContext } from '../types'
import { POLL_USERS, token as apiToken } from './notifications'
import { md5Uuid, PEOPLE, token as webToken, workshopOf } from './signed-in'

/**
 * The capacity plan's busiest hour (docs/scaling.md, issue 31) against one web process: every
 * signed-in browser polls the bell every 15 s, and per 10,000 browsers each second brings 70
 * signed-in pages, 20 anonymous pages, 20 public API calls and 10 form posts (chat messages and
 * profile saves: writes). Sent open loop at rising browser counts; the largest count whose step
 * held (docs/decisions/0114) beside what a bare node:http + pg server running only the poll's two
 * queries carries, measured by the same driver in the same run.
 *
 * Uses the notifications suite's 10,000 poll users (each gets a browser session here) and the
 * signed-in suite's 200 customers and 200 workshops with open requests and offers.
 */
export const GOAL_RATIO = 0.6

const webPollToken = (n: number) => `bench-peak-web-${String(n).padStart(6, '0')}`
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

async function seed(client: pg.Client, log: (message: string) => void) {
	const step = await seedingSession(client, log)
	// A browser session for each poll user (the notifications suite gave them API tokens): the bell polls with the cookie.
	await client.query(
		`insert into sessions (user_id, kind, token_hash, expires_at)
		 select md5('poll' || n)::uuid, 'web', h, now() + interval '10 years'
		 from unnest($1::int[], $2::text[]) as t(n, h)`,
		[Array.from({ length: POLL_USERS }, (_, i) => i + 1), Array.from({ length: POLL_USERS }, (_, i) => sha256(webPollToken(i + 1)))],
	)
	await client.query('set session_replication_role = origin')
	await step('analyze', 'analyze sessions')
}

/** A fetch() of FormData's body, as the portal's scripts send it (app/utils/portal-api.ts). */
function multipart(fields: Record<string, string>) {
	const boundary = '----AutohubBenchFormBoundary'
	const body = Object.entries(fields)
		.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
		.join('')
	return { body: `${body}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` }
}

const BROWSER_HEADERS = { 'Accept-Encoding': 'gzip, deflate, br', 'User-Agent': 'Mozilla/5.0 (autohub bench)' }

/** Takes turns: the first of each list, then the second of each, … until every list is used up. */
function interleave<T>(...lists: T[][]): T[] {
	const longest = Math.max(...lists.map((list) => list.length))
	return Array.from({ length: longest }, (_, i) => lists.flatMap((list) => (i < list.length ? [list[i]!] : [])))
		.flat()
}

/** The mix's requests, one case per kind: the requests each kind takes turns through. */
async function cases(client: pg.Client): Promise<BenchCase[]> {
	const api = (csrf: string, cookie: string, fields: Record<string, string> = {}) => {
		const { body, type } = multipart({ csrf, ...fields })
		return { method: 'POST' as const, body, headers: { ...BROWSER_HEADERS, Cookie: cookie, 'Content-Type': type, Accept: 'application/json', 'Accept-Language': 'en' } }
	}
	// The bell's poll of each poll user's browser, with its session cookie and the page's CSRF token.
	const pollers = await Promise.all(Array.from({ length: POLL_USERS }, (_, i) => signedInBrowser(webPollToken(i + 1))))
	const polls = pollers.map((browser) => ({ path: '/admin/api/get-notification', ...api(browser.csrf, browser.cookie) }))

	const people = Array.from({ length: PEOPLE }, (_, i) => i + 1)
	const customers = await Promise.all(people.map((k) => signedInBrowser(webToken('customer', k))))
	const workshops = await Promise.all(people.map((k) => signedInBrowser(webToken('workshop', k))))
	const page = (path: string, browser: { cookie: string }) => ({ path, headers: { ...BROWSER_HEADERS, Cookie: browser.cookie } })
	const signedInPages = interleave(
		people.map((k) => page('/dashboard', customers[k - 1]!)),
		people.map((k) => page(`/compaire-offers/${encodeId(md5Uuid(`open-request${k}`))}`, customers[k - 1]!)),
		people.map((k) => page('/dashboard', workshops[k - 1]!)),
		people.map((k) => page('/my-requests', customers[k - 1]!)),
		people.map((k) => page(`/workshop-bid-details/${encodeId(md5Uuid(`open-offer${k}-1`))}`, workshops[k - 1]!)),
	)

	// Visitors from search engines and ads: many workshops' pages, the list with filters, home and cities; some return (language cookie), most do not.
	const { rows: spread } = await client.query<{ id: string }>(`select id from workshops where abs(hashtext(id::text)) % 100 = 7 order by id limit 1000`)
	const { rows: combos } = await client.query<{ city: string; service: string; brand: string }>(
		`select c.code as city, s.code as service, b.code as brand from cities c, services s, car_brands b order by md5(c.code || s.code || b.code) limit 600`,
	)
	const visitor = (path: string, i: number) => ({ path, headers: { ...BROWSER_HEADERS, 'Accept-Language': ['et', 'en', 'ru'][i % 3]! } })
	const workshopPages = spread.map((row, i) => visitor(`/workshop-details/${encodeId(row.id)}`, i))
	const listPages = combos.map((c, i) => visitor(`/workshop-list?city=${c.city}&service=${c.service}${i % 2 ? `&brand=${c.brand}` : ''}`, i))
	const anonymousPages = interleave(workshopPages, listPages, Array.from({ length: 100 }, (_, i) => visitor(i % 2 ? '/' : '/cities', i)))

	// Partner sites' widgets: the public API's list and details.
	const apiCalls = interleave(
		spread.map((row) => ({ path: `/admin/api/workshop-details/${encodeId(row.id)}`, headers: BROWSER_HEADERS })),
		combos.map((c) => ({ path: `/admin/api/workshop-list?city=${c.city}&service=${c.service}&brand=${c.brand}&sort=reviews`, headers: BROWSER_HEADERS })),
	)

	// Writes: chat messages both ways on each open request (what the chat dialog posts), and profile saves (the no-JavaScript form's post).
	const messages = ['Kas saaksite auto homme hommikul vastu võtta?', 'Jah, kell 9 sobib.', 'Could you also check the tyres?', 'Сколько времени займёт работа?']
	const chats = people.flatMap((k) => [
		{ path: '/admin/api/send-chat', ...api(customers[k - 1]!.csrf, customers[k - 1]!.cookie, { receiver_id: md5Uuid(`owner${workshopOf(k, 1)}`), message: messages[k % 4]! }) },
		{ path: '/admin/api/send-chat', ...api(workshops[k - 1]!.csrf, workshops[k - 1]!.cookie, { receiver_id: md5Uuid(`customer${k}`), message: messages[(k + 1) % 4]! }) },
	])
	const profileSave = (browser: { cookie: string; csrf: string }, k: number) => ({
		path: '/profile',
		method: 'POST' as const,
		body: new URLSearchParams({ csrf: browser.csrf, firstName: ['Mari', 'Jaan', 'Olga'][k % 3]!, lastName: `Tamm ${k}`, mobile: `+372 5${String(k).padStart(6, '0')}` }).toString(),
		headers: { ...BROWSER_HEADERS, Cookie: browser.cookie, 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en' },
		redirectTo: '/profile',
	})
	const saves = people.flatMap((k) => [profileSave(customers[k - 1]!, k), profileSave(workshops[k - 1]!, k)])
	const formPosts = interleave<BenchCase['requests'][number]>(chats, saves)

	const named: Record<Kind, BenchCase['requests']> = { poll: polls, 'signed-in page': signedInPages, 'anonymous page': anonymousPages, 'API call': apiCalls, 'form post': formPosts }
	return KINDS.map((kind) => ({ name: kind, requests: named[kind] }))
}

/** The bare poll server in a process of its own (lib/bare-poll.ts), ready when it answers a poll. */
async function startBarePoll(databaseUrl: string, port: number) {
	const url = `http://127.0.0.1:${port}`
	const bare = spawnNode(['--import', 'tsx', 'scripts/bench/lib/bare-poll.ts', String(port), databaseUrl])
	try {
		await firstOk(bare, url, { headers: { Authorization: `Bearer ${apiToken(1)}` }, intervalMs: 250, timeoutMs: 60_000 })
	} catch (error) {
		await bare.stop()
		throw new Error(`the bare poll server did not start: ${(error as Error).message}`)
	}
	return { url, stop: bare.stop }
}

type Step = { browsers: number; rate: number; figures: ReturnType<typeof kindFigures>; lateP99: number; held: boolean; reasons: string[] }

/**
 * Steps through BROWSER_STEPS against `url` until a step fails. `requestFor(planned, browsers)`:
 * the request for a planned one at that browser count.
 */
async function ladder(
	label: string,
	url: string,
	kinds: Kind[],
	requestFor: (planned: Planned, browsers: number) => DrivenRequest,
	context: DriveContext,
): Promise<Step[]> {
	const run = (browsers: number, seconds: number) =>
		driveOpenLoop(url, schedule(mixRates(browsers, kinds), seconds), {
			requestFor: (planned) => requestFor(planned, browsers),
			maxSockets: 256,
			maxInFlight: 4000,
			drainMs: 5000,
		})
	if (context.warmup > 0) await run(BROWSER_STEPS[0]!, context.warmup)
	const steps: Step[] = []
	for (const browsers of BROWSER_STEPS) {
		const rates = mixRates(browsers, kinds)
		const { outcomes, lateMs } = await run(browsers, context.duration)
		const figures = kindFigures(outcomes, kinds)
		const { held, reasons } = verdict(figures)
		const step = { browsers, rate: KINDS.reduce((sum, kind) => sum + rates[kind], 0), figures, lateP99: percentile(lateMs, 99), held, reasons }
		steps.push(step)
		context.log(
			`${label}: ${browsers.toLocaleString('en')} browsers (${step.rate.toFixed(0)} req/s): ` +
				figures.map((f) => `${f.kind} p50 ${f.p50.toFixed(0)} / p99 ${f.p99.toFixed(0)} ms${f.errors ? `, ${f.errors} failed` : ''}`).join('; ') +
				(held ? ' — held' : ` — not held (${reasons.join('; ')})`),
		)
		if (!held) break
		// A moment for the server's queues and garbage to settle before the next rate.
		await new Promise((resolve) => setTimeout(resolve, 1000))
	}
	return steps
}

/**
 * Each of the requests once, closed loop over a few connections:
 * a process an hour into the day has seen its browsers and PostgreSQL holds their rows (the plan's
 * working set fits in memory), so the steps do not measure a cold start.
 */
async function warmUp(url: string, requests: DrivenRequest[]) {
	let next = 0
	await autocannon({
		url,
		connections: 8,
		amount: requests.length,
		timeout: 30,
		requests: [
			{
				path: requests[0]!.path,
				setupRequest: (request) => {
					const r = requests[next++ % requests.length]!
					return { ...request, method: r.method ?? 'GET', path: r.path, body: r.body, headers: { ...request.headers, ...r.headers } }
				},
			},
		],
	})
}

/** Sends each case's first request once and says which answer was not the one wanted: a broken mix is found before any step. */
async function preflight(url: string, cases: Array<{ name: string; request: DrivenRequest }>) {
	const wrong: string[] = []
	for (const { name, request } of cases) {
		const response = await fetch(new URL(request.path, url), { method: request.method ?? 'GET', headers: request.headers, body: request.body, redirect: 'manual' })
		await response.arrayBuffer()
		const location = response.headers.get('location') ?? undefined
		const ok = request.redirectTo !== undefined ? response.status >= 300 && response.status < 400 && location === request.redirectTo : response.ok
		if (!ok) wrong.push(`${name} ${request.method ?? 'GET'} ${request.path}: ${response.status}${location ? ` → ${location}` : ''}`)
	}
	if (wrong.length) throw new Error(`the mix's requests are not answered as a browser's would be:\n  ${wrong.join('\n  ')}`)
}

function printSteps(title: string, steps: Step[], kinds: Kind[]) {
	console.log(`\n${title}`)
	printColumns(
		['browsers', 'req/s', ...kinds.map((kind) => `${kind} p50/p99 ms`), 'failed', 'late p99', 'held'],
		steps.map((step) => [
			step.browsers.toLocaleString('en'),
			step.rate.toFixed(0),
			...kinds.map((kind) => {
				const f = step.figures.find((figures) => figures.kind === kind)
				return f ? `${f.p50.toFixed(0)} / ${f.p99.toFixed(0)}` : ''
			}),
			String(step.figures.reduce((sum, f) => sum + f.errors, 0)),
			`${step.lateP99.toFixed(0)} ms`,
			// The first reason only: the log line of the step has them all.
			step.held ? 'yes' : `no: ${step.reasons[0]}${step.reasons.length > 1 ? ' …' : ''}`,
		]),
	)
}

async function drive(context: DriveContext): Promise<{ failed: boolean }> {
	if (!/^postgres(ql)?:\/\//.test(context.databaseUrl)) {
		console.error('[bench] peak: the capacity plan runs on PostgreSQL; the embedded PGlite database is not measured. Set BENCH_DATABASE_URL to a postgres:// URL.')
		return { failed: true }
	}
	const kinds = KINDS.filter((kind) => context.cases.some((c) => c.name === kind))
	const requestsOf = Object.fromEntries(context.cases.map((c) => [c.name, c.requests.map((r) => asBrowserSends(r, context.portalUrl))])) as Record<Kind, DrivenRequest[]>
	// Each kind takes turns through its requests, carrying on across steps; a poll is browser n % browsers's, each browser a poll user's.
	const turns = new Map<Kind, number>()
	const portalRequest = (planned: Planned, browsers: number): DrivenRequest => {
		const list = requestsOf[planned.kind]
		if (planned.kind === 'poll') return list[(planned.n % browsers) % list.length]!
		const turn = turns.get(planned.kind) ?? 0
		turns.set(planned.kind, turn + 1)
		return list[turn % list.length]!
	}
	await preflight(context.portalUrl, kinds.map((kind) => ({ name: kind, request: requestsOf[kind][0]! })))
	context.log('warming the portal up: each poll user once, the first 500 requests of the other kinds (20 posts)')
	await warmUp(context.portalUrl, kinds.flatMap((kind) => requestsOf[kind].slice(0, kind === 'form post' ? 20 : kind === 'poll' ? POLL_USERS : 500)))
	context.log(`the portal, kinds ${kinds.join(', ')}; ${context.duration} s per step, stopping at the first step not held`)
	const portalSteps = await ladder('portal', context.portalUrl, kinds, portalRequest, context)

	// The portal's backlog from its last step drains before the bare server is measured beside it.
	await new Promise((resolve) => setTimeout(resolve, 3000))
	// The bare server answers the poll only, by the same users' API tokens (the same two queries, the same rows).
	const bare = await startBarePoll(context.databaseUrl, context.baselinePort)
	let bareSteps: Step[]
	try {
		const barePolls: DrivenRequest[] = Array.from({ length: POLL_USERS }, (_, i) => ({
			path: '/admin/api/get-notification',
			method: 'POST',
			body: '{}',
			headers: { Authorization: `Bearer ${apiToken(i + 1)}`, 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip, deflate, br' },
		}))
		await preflight(bare.url, [{ name: 'poll', request: barePolls[0]! }])
		await warmUp(bare.url, barePolls)
		context.log('the bare node:http + pg poll server, polls only')
		bareSteps = await ladder('bare', bare.url, ['poll'], (planned, browsers) => barePolls[(planned.n % browsers) % POLL_USERS]!, context)
	} finally {
		await bare.stop()
	}

	printSteps('peak: the portal, one web process, the busiest hour\'s mix (p99 bounds: polls and API 300 ms, pages 500 ms, posts 1 s; no failures)', portalSteps, kinds)
	printSteps('peak: bare node:http + pg, the poll\'s two queries only (p99 ≤ 300 ms)', bareSteps, ['poll'])
	const portal = heldBrowsers(portalSteps)
	const bareHeld = heldBrowsers(bareSteps)
	const barePollsPerSecond = bareHeld / 15
	const ratio = bareHeld ? portal / bareHeld : 0
	console.log(`\nportal: ${portal.toLocaleString('en')} browsers held${kinds.length < KINDS.length ? ` (kinds ${kinds.join(', ')} only)` : ''}`)
	console.log(`bare node:http + pg: ${barePollsPerSecond.toFixed(0)} polls/s held = ${browsersOfPolls(barePollsPerSecond).toLocaleString('en')} browsers`)
	console.log(`portal / bare = ${ratio.toFixed(2)} (goal ≥ ${GOAL_RATIO}); one step's resolution: ${stepResolution(portal)}`)
	// Others' work on the machine takes the cores the portal and PostgreSQL would have: say how busy it was.
	console.log(`the machine's load average (1, 5, 15 min) at the end: ${loadavg().map((n) => n.toFixed(1)).join(', ')} on ${availableCores()} cores`)
	const lastHeld = [...portalSteps, ...bareSteps].filter((s) => s.held)
	if (lastHeld.some((s) => s.lateP99 > P99_BOUND_MS.poll / 3)) console.log('The driver itself started some requests late (late p99 above): the machine is busy, or the driver is the limit.')
	return { failed: ratio < GOAL_RATIO }
}

/** How far apart the steps around `browsers` are: the figures' grain. */
function stepResolution(browsers: number) {
	const i = BROWSER_STEPS.indexOf(browsers)
	const next = BROWSER_STEPS[i + 1]
	return next ? `the next step was ${next.toLocaleString('en')}` : 'the last step'
}

export const peakSuite: BenchSuite = {
	name: 'peak',
	description: "the capacity plan's busiest hour, open loop at rising browser counts, against a bare node:http + pg poll server",
	seedVersion: 1,
	seed,
	cases,
	drive,
}
