import { percentile } from './peak-mix'

/** Latencies of one measured call: p50, p95 and p99 (ms), and calls a second. */
export type CallFigures = { connections: number; calls: number; p50: number; p95: number; p99: number; perSecond: number }

/**
 * Calls `call` from `connections` loops at once for `seconds` (after `warmup` seconds not counted),
 * each loop waiting for its answer before the next call; `pick` gives each call its argument.
 */
export async function callLoop<T>(call: (argument: T) => Promise<unknown>, pick: () => T, options: { connections: number; seconds: number; warmup: number }): Promise<CallFigures> {
	const run = async (seconds: number, times: number[]) => {
		const end = performance.now() + seconds * 1000
		await Promise.all(
			Array.from({ length: options.connections }, async () => {
				while (performance.now() < end) {
					const argument = pick()
					const started = performance.now()
					await call(argument)
					times.push(performance.now() - started)
				}
			}),
		)
	}
	if (options.warmup > 0) await run(options.warmup, [])
	const times: number[] = []
	await run(options.seconds, times)
	return figuresOf(times, options.connections, options.seconds)
}

export function figuresOf(times: number[], connections: number, seconds: number): CallFigures {
	return { connections, calls: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), perSecond: times.length / seconds }
}

/** Whether a p99 keeps to its target, and the reason when it does not. */
export function targetVerdict(figures: CallFigures, targetMs: number): { met: boolean; reason?: string } {
	if (!figures.calls) return { met: false, reason: 'no call answered' }
	return figures.p99 < targetMs ? { met: true } : { met: false, reason: `p99 ${figures.p99.toFixed(1)} ms ≥ ${targetMs} ms at ${figures.connections} connection${figures.connections === 1 ? '' : 's'}` }
}
