import { describe, expect, test } from 'vitest'
import { answered, driveOpenLoop } from '../../scripts/bench/lib/open-loop'
import { browsersOfPolls, heldBrowsers, kindFigures, mixRates, percentile, schedule, verdict, type KindFigures } from '../../scripts/bench/lib/peak-mix'

// The peak suite's arithmetic (`npm run bench -- --suite peak`): what it sends, and when it calls a step held.
describe('the busiest hour mix', () => {
	test('10,000 browsers send the capacity plan’s rates', () => {
		const rates = mixRates(10_000)
		expect(rates.poll).toBeCloseTo(666.67, 2)
		expect(rates).toMatchObject({ 'signed-in page': 70, 'anonymous page': 20, 'API call': 20, 'form post': 10 })
		expect(mixRates(2_000)['signed-in page']).toBe(14)
		expect(mixRates(3_000, ['poll'])).toEqual({ poll: 200, 'signed-in page': 0, 'anonymous page': 0, 'API call': 0, 'form post': 0 })
	})

	test('a server answering N polls a second carries 15 × N browsers', () => {
		expect(browsersOfPolls(200)).toBe(3_000)
	})

	test('a step’s requests are evenly spread, in time order, each kind its share', () => {
		const plan = schedule(mixRates(3_000), 2)
		const count = (kind: string) => plan.filter((p) => p.kind === kind).length
		expect([count('poll'), count('signed-in page'), count('anonymous page'), count('API call'), count('form post')]).toEqual([400, 42, 12, 12, 6])
		expect(plan.every((p, i) => i === 0 || p.at >= plan[i - 1]!.at)).toBe(true)
		expect(Math.max(...plan.map((p) => p.at))).toBeLessThan(2000)
		const polls = plan.filter((p) => p.kind === 'poll')
		expect(polls[0]).toEqual({ at: 2.5, kind: 'poll', n: 0 })
		expect(polls[1]!.at - polls[0]!.at).toBeCloseTo(5)
		expect(polls.map((p) => p.n)).toEqual(Array.from({ length: 400 }, (_, n) => n))
	})
})

describe('a step’s verdict', () => {
	const figures = (over: Partial<KindFigures>[]): KindFigures[] => [
		{ kind: 'poll', sent: 100, p50: 5, p99: 280, errors: 0, ...over[0] },
		{ kind: 'signed-in page', sent: 10, p50: 20, p99: 480, errors: 0, ...over[1] },
		{ kind: 'form post', sent: 2, p50: 40, p99: 900, errors: 0, ...over[2] },
	]

	test('held when every kind is within its bound and nothing failed', () => {
		expect(verdict(figures([]))).toEqual({ held: true, reasons: [] })
	})

	test('a slow kind or a single failure fails the step, and says why', () => {
		expect(verdict(figures([{ p99: 301 }]))).toEqual({ held: false, reasons: ['poll p99 301 ms > 300 ms'] })
		expect(verdict(figures([{}, {}, { errors: 1 }])).reasons).toEqual(['1 form post failed'])
		expect(verdict(figures([{}, { p99: 501, errors: 2 }])).reasons).toEqual(['2 signed-in pages failed', 'signed-in page p99 501 ms > 500 ms'])
		expect(verdict(figures([{ p99: NaN, errors: 100 }])).reasons).toEqual(['100 polls failed', 'poll p99 none answered > 300 ms'])
		expect(verdict([]).held).toBe(false)
	})

	test('the figures of a step: percentiles of the answered, the failed counted apart', () => {
		const outcomes = [
			...Array.from({ length: 99 }, (_, i) => ({ kind: 'poll' as const, ms: i + 1, ok: true })),
			{ kind: 'poll' as const, ms: 1000, ok: true },
			{ kind: 'poll' as const, ms: NaN, ok: false },
		]
		expect(kindFigures(outcomes)).toEqual([{ kind: 'poll', sent: 101, p50: 50, p99: 99, errors: 1 }])
		expect(percentile([3, 1, 2], 100)).toBe(3)
		expect(percentile([], 50)).toBeNaN()
	})

	test('the browsers held are the last step’s before the first that failed', () => {
		expect(heldBrowsers([{ browsers: 2_000, held: true }, { browsers: 4_000, held: true }, { browsers: 6_000, held: false }, { browsers: 8_000, held: true }])).toBe(4_000)
		expect(heldBrowsers([{ browsers: 2_000, held: false }])).toBe(0)
	})

	test('a form post succeeds by its redirect, anything else by a 2xx', () => {
		expect(answered({ redirectTo: '/profile' }, 302, '/profile')).toBe(true)
		expect(answered({ redirectTo: '/profile' }, 302, '/')).toBe(false)
		expect(answered({ redirectTo: '/profile' }, 200, undefined)).toBe(false)
		expect(answered({}, 204, undefined)).toBe(true)
		expect(answered({}, 302, '/')).toBe(false)
	})
})

describe('the open-loop driver', () => {
	// A local server: /slow never answers, /fail is a 500, anything else a 200.
	async function server() {
		const { createServer } = await import('node:http')
		const held: Array<() => void> = []
		const s = createServer((request, response) => {
			if (request.url === '/slow') return void held.push(() => response.destroy())
			response.writeHead(request.url === '/fail' ? 500 : 200).end('ok')
		})
		await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
		const { port } = s.address() as { port: number }
		return { url: `http://127.0.0.1:${port}`, close: () => (held.forEach((end) => end()), new Promise((resolve) => s.close(resolve))) }
	}
	const plan = (paths: string[]) => paths.map((_, n) => ({ at: n, kind: 'poll' as const, n }))

	test('sends every planned request and records which failed', async () => {
		const { url, close } = await server()
		const paths = ['/a', '/fail', '/b', '/c']
		const { outcomes } = await driveOpenLoop(url, plan(paths), { requestFor: (p) => ({ path: paths[p.n]! }), maxSockets: 4, maxInFlight: 10, drainMs: 5000 })
		await close()
		expect(outcomes).toHaveLength(4)
		expect(outcomes.filter((o) => !o.ok)).toHaveLength(1)
	})

	test('a server that does not answer: the rest counted as failed once too many wait, nothing waited for past the drain', async () => {
		const { url, close } = await server()
		const { outcomes } = await driveOpenLoop(url, plan(['', '', '', '', '']), { requestFor: () => ({ path: '/slow' }), maxSockets: 8, maxInFlight: 2, drainMs: 200 })
		await close()
		expect(outcomes).toHaveLength(5)
		expect(outcomes.every((o) => !o.ok)).toBe(true)
	})
})
