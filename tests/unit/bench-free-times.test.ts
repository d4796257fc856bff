import { describe, expect, test } from 'vitest'
import { callLoop, figuresOf, targetVerdict } from '../../scripts/bench/lib/in-process'

// The free-times suite's measuring (`npm run bench -- --suite free-times`): its percentiles, its loops and its verdict.
describe('a call measured in process', () => {
	test('p50, p95 and p99 are values that were measured, and calls a second count the measured seconds', () => {
		const times = Array.from({ length: 100 }, (_, i) => i + 1)
		expect(figuresOf(times, 1, 4)).toEqual({ connections: 1, calls: 100, p50: 50, p95: 95, p99: 99, perSecond: 25 })
		expect(figuresOf([7], 4, 1)).toMatchObject({ p50: 7, p95: 7, p99: 7 })
	})

	test('the target is met below it, missed at it, and missed when nothing answered', () => {
		const at = (p99: number, calls = 10) => ({ connections: 1, calls, p50: 1, p95: 2, p99, perSecond: 1 })
		expect(targetVerdict(at(19.9), 20)).toEqual({ met: true })
		expect(targetVerdict(at(20), 20)).toEqual({ met: false, reason: 'p99 20.0 ms ≥ 20 ms at 1 connection' })
		expect(targetVerdict(at(Number.NaN, 0), 20)).toEqual({ met: false, reason: 'no call answered' })
	})

	test('each loop waits for its answer; the warm-up is not counted; every call gets its argument', async () => {
		const seen: number[] = []
		let n = 0
		const call = async (argument: number) => {
			seen.push(argument)
			await new Promise((resolve) => setTimeout(resolve, 5))
		}
		const figures = await callLoop(call, () => n++, { connections: 2, seconds: 0.2, warmup: 0.05 })
		expect(figures.connections).toBe(2)
		// Two loops of ~5 ms calls for 0.2 s: at most 2 × 40 counted, and the warm-up's calls apart.
		expect(figures.calls).toBeGreaterThan(10)
		expect(figures.calls).toBeLessThanOrEqual(80)
		expect(seen.length).toBeGreaterThan(figures.calls)
		expect(new Set(seen).size).toBe(seen.length)
		expect(figures.p50).toBeGreaterThanOrEqual(4)
	})
})
