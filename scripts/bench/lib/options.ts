import { parseArgs } from 'node:util'

/** What `npm run bench -- --help` prints: every option, with its default. */
export const USAGE = `npm run bench -- [options]

  --suite <name>        run this suite (repeat for more); default: every suite
  --case <text>         only the cases whose name contains the text, in every suite (repeat for
                        more; not case-sensitive); suites with no such case start nothing
  --runs <n>            3: runs of the start and lighthouse suites (the start's reopenings, each
                        beside one of its baseline's; Lighthouse's runs per page, median)
  --portal <dir>        this checkout: measure the build in another checkout instead, in every
                        suite (it must be built; nothing is built)
  --compare-with <dir>  javascript and lighthouse only: another checkout's build measured beside
                        the portal
  --reseed              rebuild the bench database first
  --no-build            measure the current build instead of building
  --duration <s>        10: seconds per case (request suites), per step (peak)
  --warmup <s>          2: warm-up seconds per case, 0 for none (request suites; peak: once,
                        before its first step)
  --connections <list>  1,4: concurrency levels (request suites)
  --profile             the portal runs under node --cpu-prof; its CPU profile is left in
                        ./profiles (open it in Chrome's DevTools): where a suite's time goes
  --port <n>            3230 (BENCH_PORT): the portal's port (a request suite's baseline takes the
                        next one, the start suite's takes turns on it; Lighthouse uses free ports)
  --help                this text

Request suites (PostgreSQL at BENCH_DATABASE_URL, seeded once): directory, notifications, pages,
signed-in, peak (the busiest hour's mix, open loop at rising browser counts; --case chooses its
kinds: poll, signed-in page, anonymous page, API call, form post), free-times (a workshop's free
times called in process on 10,000 calendars, at each --connections level; no portal, no build),
price-ranges (1,000,000 more jobs, added once: the usual prices' recomputation timed in process,
then the price pages beside the directory's city pages; --case recompute for the timing alone). Process suites (no database): javascript, start, lighthouse. --portal and --compare-with take a
checkout's directory, absolute or relative to this checkout's root.`

/** A mistake in the options: said with the usage, before anything starts. */
export class UsageError extends Error {}

export type BenchOptions = {
	help: boolean
	suites: string[]
	cases: string[]
	runs: number
	portal?: string
	compareWith?: string
	reseed: boolean
	build: boolean
	duration: number
	warmup: number
	connections: number[]
	port: number
	profile: boolean
}

function integer(option: string, text: string, { min, max = Number.MAX_SAFE_INTEGER }: { min: number; max?: number }) {
	const value = /^\d+$/.test(text.trim()) ? Number(text) : NaN
	if (!(value >= min && value <= max)) {
		const kind = min === 0 ? 'a whole number (0 or more)' : 'a positive whole number'
		throw new UsageError(`--${option} takes ${kind}${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, not "${text}"`)
	}
	return value
}

function parse(args: string[]) {
	try {
		return parseArgs({
			args,
			options: {
				help: { type: 'boolean', short: 'h', default: false },
				suite: { type: 'string', multiple: true, default: [] },
				case: { type: 'string', multiple: true, default: [] },
				runs: { type: 'string', default: '3' },
				portal: { type: 'string' },
				'compare-with': { type: 'string' },
				reseed: { type: 'boolean', default: false },
				'no-build': { type: 'boolean', default: false },
				duration: { type: 'string', default: '10' },
				warmup: { type: 'string', default: '2' },
				connections: { type: 'string', default: '1,4' },
				port: { type: 'string' },
				profile: { type: 'boolean', default: false },
			},
		}).values
	} catch (error) {
		// Unknown options, missing values, stray arguments.
		const message = (error as Error).message
		throw new UsageError(/'--starts'/.test(message) ? `${message}: the start suite's reopenings are --runs` : message)
	}
}

/** The bench's options from its arguments, checked: a UsageError says what is wrong. */
export function parseBenchOptions(args: string[], env: Record<string, string | undefined> = process.env): BenchOptions {
	const values = parse(args)
	const cases = values.case.map((text) => text.trim())
	if (cases.some((text) => !text)) throw new UsageError('--case takes a text to look for in the cases’ names')
	return {
		help: values.help,
		suites: values.suite,
		cases,
		runs: integer('runs', values.runs, { min: 1 }),
		portal: values.portal,
		compareWith: values['compare-with'],
		reseed: values.reseed,
		build: !values['no-build'],
		duration: integer('duration', values.duration, { min: 1 }),
		warmup: integer('warmup', values.warmup, { min: 0 }),
		connections: values.connections.split(',').map((text) => integer('connections', text, { min: 1 })),
		profile: values.profile,
		// The portal's port and the next one (its baseline's).
		port: integer(values.port === undefined && env.BENCH_PORT !== undefined ? 'port (BENCH_PORT)' : 'port', values.port ?? env.BENCH_PORT ?? '3230', { min: 1, max: 65534 }),
	}
}

/** `--case`: a name is chosen when it contains one of the texts (any case); no text chooses every name. */
export function chosenCase(name: string, cases: string[]) {
	return !cases.length || cases.some((text) => name.toLowerCase().includes(text.toLowerCase()))
}
