import type pg from 'pg'

/**
 * One measured call: a name for the table and the requests it cycles through (one path, or many).
 * `redirectTo`: the request is a form post whose success is a redirect there (the peak suite's
 * driver checks it; any other answer but a 2xx is a failure).
 */
export type BenchCase = {
	name: string
	requests: Array<{ path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; redirectTo?: string }>
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
	/**
	 * Its seed goes on top of a bench database seeded before the suite existed: when its marker is
	 * missing, a run that chooses it adds its data (once per bench database) instead of rebuilding
	 * the whole database; another seed version still rebuilds it.
	 */
	addedLater?: true
	/** The calls to measure, chosen from the seeded data. */
	cases: (client: pg.Client) => Promise<BenchCase[]>
	baseline?: BenchBaseline
	/**
	 * A suite that sends its cases together as one traffic mix (the peak suite) instead of each on
	 * its own under autocannon: given the running portal and the cases --case chose, it measures
	 * (with its own baseline) and prints its own figures; `failed`: a goal it checks was missed.
	 */
	drive?: (context: DriveContext) => Promise<{ failed: boolean }>
	/**
	 * A suite that calls the portal's server code in this process on the seeded database (no portal
	 * is started, nothing is built for it): the free-times suite. It measures its cases (with its
	 * own baseline) and prints its own figures; `failed`: a goal it checks was missed.
	 */
	direct?: (context: DirectContext) => Promise<{ failed: boolean }>
}

export type DirectContext = {
	databaseUrl: string
	cases: BenchCase[]
	/** `--connections`: how many calls at once; `--duration`, `--warmup`: seconds per level. */
	connections: number[]
	duration: number
	warmup: number
	log: (message: string) => void
}

export type DriveContext = {
	portalUrl: string
	databaseUrl: string
	cases: BenchCase[]
	/** `--connections`: the concurrency levels, for a suite that measures its cases under autocannon itself. */
	connections: number[]
	/** `--duration`: seconds per step; `--warmup`: seconds before the first. */
	duration: number
	warmup: number
	/** A free port for the suite's baseline (the portal's + 1). */
	baselinePort: number
	log: (message: string) => void
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

/** A figure a suite measured itself, beside its baseline's (when it has one). */
export type BenchFigure = { name: string; unit: 'ms' | 'MB'; value: number; baseline?: number; spread?: string; baselineSpread?: string }

/**
 * A suite that measures processes it starts itself (the embedded start, Lighthouse) rather than
 * requests under load against the portal on the seeded bench database: it needs no PostgreSQL,
 * and prints its own figures. Process suites run after the request suites, in their list's order.
 */
export type BenchProcessSuite = {
	name: string
	description: string
	/** Its cases' names, known before anything starts: what `--case` chooses from. */
	cases: string[]
	/** It measures a second checkout beside the portal (`--compare-with`); others refuse the option. */
	compares?: boolean
	/** `failed`: a goal it checks was missed (the run exits non-zero). */
	run: (options: ProcessSuiteOptions) => Promise<{ failed: boolean }>
}

export type ProcessSuiteOptions = {
	/** The cases `--case` chose (every one without it; never none: a suite with none is not run). */
	cases: string[]
	/** `--runs`: how many times each measurement is taken (the median is reported). */
	runs: number
	/** `--port`: the port to measure on (a suite may take its own free ports instead). */
	port: number
	/** `--portal`: the checkout whose build is measured, absolute (this one by default). */
	portal: string
	/** `--compare-with`: a second checkout, absolute (only given to a suite that `compares`). */
	compareWith?: string
	log: (message: string) => void
}
