/**
 * The busiest hour of the capacity plan (docs/scaling.md) as arithmetic: what a number of
 * signed-in browsers sends each second, when each request of a step is due, and whether a step
 * held. Pure, so the peak suite's figures can be checked without a server (tests/unit/bench-peak.test.ts).
 */

export type Kind = 'poll' | 'signed-in page' | 'anonymous page' | 'API call' | 'form post'
export const KINDS: Kind[] = ['poll', 'signed-in page', 'anonymous page', 'API call', 'form post']

/** Every signed-in browser asks for the bell's list this often (NOTIFICATION_POLL_MS). */
export const POLL_INTERVAL_S = 15

/** Requests per second per 10,000 signed-in browsers, besides the polls (docs/scaling.md's table). */
const PER_10K_BROWSERS: Record<Exclude<Kind, 'poll'>, number> = { 'signed-in page': 70, 'anonymous page': 20, 'API call': 20, 'form post': 10 }

/** The p99 a kind must stay under for a step to hold, ms: what a person waiting on it would accept. */
export const P99_BOUND_MS: Record<Kind, number> = { poll: 300, 'API call': 300, 'signed-in page': 500, 'anonymous page': 500, 'form post': 1000 }

/** Requests per second of each kind for `browsers` signed-in browsers; `only`: the kinds sent (the others 0). */
export function mixRates(browsers: number, only: readonly Kind[] = KINDS): Record<Kind, number> {
	const rates = { poll: browsers / POLL_INTERVAL_S } as Record<Kind, number>
	for (const [kind, per10k] of Object.entries(PER_10K_BROWSERS)) rates[kind as Kind] = (browsers * per10k) / 10_000
	for (const kind of KINDS) if (!only.includes(kind)) rates[kind] = 0
	return rates
}

/** How many browsers a server answering `pollsPerSecond` polls carries (each polls every 15 s). */
export const browsersOfPolls = (pollsPerSecond: number) => pollsPerSecond * POLL_INTERVAL_S

/** The browser counts a run steps through, rising until a step fails: finer where the portal is expected, coarser above. */
export const BROWSER_STEPS = [
	500, 750, 1_000, 1_250, 1_500, 1_750, 2_000, 2_500, 3_000, 3_500, 4_000, 5_000, 6_000, 7_000, 8_000, 10_000, 12_000, 14_000, 16_000, 20_000, 24_000, 28_000, 32_000, 40_000, 48_000, 56_000, 64_000, 80_000, 96_000,
	112_000, 128_000,
]

/** One request of a step: when it is due (ms after the step starts), its kind, and its number among that kind's (to pick who sends it). */
export type Planned = { at: number; kind: Kind; n: number }

/**
 * The start times of a step, open loop: each kind evenly spaced at its rate (the first half an
 * interval in, so kinds do not all start at 0), merged in time order. round(rate × seconds) of
 * each kind, all due before `seconds` is over.
 */
export function schedule(rates: Record<Kind, number>, seconds: number): Planned[] {
	const planned: Planned[] = []
	for (const kind of KINDS) {
		const count = Math.round(rates[kind] * seconds)
		const interval = (seconds * 1000) / Math.max(count, 1)
		for (let n = 0; n < count; n++) planned.push({ at: (n + 0.5) * interval, kind, n })
	}
	return planned.sort((a, b) => a.at - b.at || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind))
}

/** The value below which `p` % of the values lie (nearest rank); NaN for none. */
export function percentile(values: number[], p: number) {
	if (!values.length) return NaN
	const sorted = [...values].sort((a, b) => a - b)
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** What was measured of one kind in one step: every request's time from when it was due to its answer's end, and how many failed. */
export type KindFigures = { kind: Kind; sent: number; p50: number; p99: number; errors: number }

/** One request's outcome, as the driver records it. */
export type Outcome = { kind: Kind; ms: number; ok: boolean }

export function kindFigures(outcomes: Outcome[], kinds: readonly Kind[] = KINDS): KindFigures[] {
	return kinds
		.map((kind) => {
			const own = outcomes.filter((o) => o.kind === kind)
			const times = own.filter((o) => o.ok).map((o) => o.ms)
			return { kind, sent: own.length, p50: percentile(times, 50), p99: percentile(times, 99), errors: own.length - times.length }
		})
		.filter((figures) => figures.sent > 0)
}

/** A step holds when no request failed and every kind's p99 is within its bound; otherwise, why not. */
export function verdict(figures: KindFigures[], bounds: Record<Kind, number> = P99_BOUND_MS): { held: boolean; reasons: string[] } {
	const reasons: string[] = []
	for (const f of figures) {
		if (f.errors) reasons.push(`${f.errors} ${f.kind}${f.errors === 1 ? '' : 's'} failed`)
		if (!(f.p99 <= bounds[f.kind])) reasons.push(`${f.kind} p99 ${Number.isNaN(f.p99) ? 'none answered' : `${Math.round(f.p99)} ms`} > ${bounds[f.kind]} ms`)
	}
	if (!figures.length) reasons.push('nothing was sent')
	return { held: !reasons.length, reasons }
}

/** The largest browser count held before the first step that failed (0 when the first failed). */
export function heldBrowsers(steps: Array<{ browsers: number; held: boolean }>) {
	let held = 0
	for (const step of steps) {
		if (!step.held) break
		held = Math.max(held, step.browsers)
	}
	return held
}
