import type pg from 'pg'

/** One measured call: a name for the table and the requests it cycles through (one path, or many). */
export type BenchCase = {
	name: string
	requests: Array<{ path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }>
}

/**
 * A benchmark suite: seeds its data once (set-based SQL, re-used by later runs while
 * `seedVersion` is unchanged) and lists the calls to measure against the running portal.
 * Add a suite by writing a module in ./suites and listing it in ./suites/index.ts.
 */
export type BenchSuite = {
	name: string
	description: string
	/** Bump when the seed changes: the next run builds a fresh database. */
	seedVersion: number
	/** Fills the freshly migrated database. Suites run in order and may rely on earlier suites' data. */
	seed: (client: pg.Client, log: (message: string) => void) => Promise<void>
	/** The calls to measure, chosen from the seeded data. */
	cases: (client: pg.Client) => Promise<BenchCase[]>
	baseline?: BenchBaseline
}

/**
 * A bare server answering the same calls with the same queries, without the framework, to show
 * what the portal's own layers cost: each case is measured against both and the ratio printed.
 */
export type BenchBaseline = {
	label: string
	/** `portalUrl`: the portal under measurement, for a baseline that repeats its answers. */
	start: (databaseUrl: string, port: number, benchCase: BenchCase, portalUrl: string) => Promise<{ url: string; stop: () => Promise<void> }>
}
