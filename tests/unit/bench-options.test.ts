import { describe, expect, test } from 'vitest'
import { chosenCase, parseBenchOptions, UsageError } from '../../scripts/bench/lib/options'

// `npm run bench`'s options are checked before anything starts (a build, a seed, a server).
describe('parseBenchOptions', () => {
	test('defaults', () => {
		expect(parseBenchOptions([], {})).toEqual({
			help: false,
			suites: [],
			cases: [],
			runs: 3,
			portal: undefined,
			compareWith: undefined,
			reseed: false,
			build: true,
			duration: 10,
			warmup: 2,
			connections: [1, 4],
			port: 3230,
			profile: false,
		})
		expect(parseBenchOptions([], { BENCH_PORT: '4000' }).port).toBe(4000)
	})

	test('repeatable suites and cases, numbers as numbers', () => {
		const options = parseBenchOptions(['--suite', 'start', '--suite', 'lighthouse', '--case', 'home', '--case', ' contact ', '--runs', '5', '--warmup', '0', '--connections', '10,100', '--no-build', '--profile'], {})
		expect(options).toMatchObject({ suites: ['start', 'lighthouse'], cases: ['home', 'contact'], runs: 5, warmup: 0, connections: [10, 100], build: false, profile: true })
	})

	test.each([
		[['--runs', '0'], /--runs takes a positive whole number, not "0"/],
		[['--runs', '1.5'], /--runs/],
		[['--duration', 'ten'], /--duration/],
		[['--connections', '1,0'], /--connections/],
		[['--connections', ''], /--connections/],
		[['--port', '65535'], /--port takes a positive whole number up to 65534/],
		[['--starts', '3'], /--runs/],
		[['--case', ' '], /--case/],
		[['stray'], /positional/],
	])('%j is refused', (args, message) => {
		expect(() => parseBenchOptions(args, {})).toThrow(UsageError)
		expect(() => parseBenchOptions(args, {})).toThrow(message)
	})
})

describe('chosenCase', () => {
	test('any of the texts, contained, in any case; no text chooses all', () => {
		expect(chosenCase('list API, no filter', [])).toBe(true)
		expect(chosenCase('list API, no filter', ['list api'])).toBe(true)
		expect(chosenCase('home', ['contact', 'home'])).toBe(true)
		expect(chosenCase('workshop details page', ['home'])).toBe(false)
	})
})
