import type PgBoss from 'pg-boss'
import { ADVISORY_LOCKS, withAdvisoryLock } from '~/db/db.server'
import { describeError, logger } from '~/utils/logger.server'
import { jobRuns } from '~/observability/metrics.server'
import { lazily, singleton } from '~/utils/singleton.server'
import { TIME_ZONE, tallinnDay, tallinnToDate } from '~/utils/time'

/**
 * The background jobs on a PostgreSQL server: one pg-boss queue per job, in the schema `pgboss` of
 * the app's database (docs/decisions/0084-job-queue.md). A cron schedule starts each job once per
 * tick across all processes; the queues are `stately` (at most one run waiting and one running), so
 * runs of a job never overlap and a burst of triggers makes one run. A run that throws is logged and
 * retried with backoff. On the embedded database the jobs run on timers instead (jobs.server.ts),
 * and pg-boss is never loaded: a queue loads it when it starts (decision 0094).
 */

/** A periodic job: the one list (jobs.server.ts) drives the timers on PGlite and the queues here. */
export type Job = {
	/** Also the queue's name. */
	name: string
	/** How often it runs: the timer's delay on PGlite, the nearest cron schedule here. */
	everyMs: () => number
	run: () => Promise<unknown>
	/**
	 * `false`: first run after one interval, not while a process is starting; a function: at start
	 * only when it answers true (the usual prices while there are none yet, decision 0148).
	 */
	atStart?: false | (() => Promise<boolean>)
	/**
	 * A daily job's time on Tallinn's clock, "HH:MM" (the night's quiet hour): its cron in Tallinn's
	 * time zone on PostgreSQL, and its timer's runs on PGlite, instead of `everyMs`'s nearest.
	 */
	dailyAt?: string
}

export type JobQueueOptions = {
	url: string
	jobs: Job[]
	/** Work the queues (a worker, or a web process by default); false: only queue jobs (RUN_JOBS=false). */
	work: boolean
	/** The tests' shorter delays; production uses the defaults below. */
	tuning?: Partial<typeof defaultTuning>
}

const defaultTuning = {
	retryLimit: 3,
	/** Seconds before the first retry; backoff doubles it (with jitter) for each next one. */
	retryDelay: 30,
	retryBackoff: true,
	/** A run still active after this long (its process died) fails and is retried: a stately queue waits for it. */
	expireInSeconds: 5 * 60,
	/** How often pg-boss looks for cron ticks that are due, and moves them into the queues. */
	cronMonitorIntervalSeconds: 30,
	cronWorkerIntervalSeconds: 5,
	/** A queue is polled as often as its job's interval, but at least this often. */
	maxPollingSeconds: 10,
	/** How long a graceful stop waits for running jobs before failing them (they are retried). */
	stopTimeoutMs: 10_000,
}

const SCHEMA = 'pgboss'

const loadPgBoss = lazily(async () => (await import('pg-boss')).default)

/** The cron schedule nearest to an interval: every n minutes or hours where n divides the hour or the day, else daily. */
export function cronFor(everyMs: number): string {
	const minutes = everyMs / 60_000
	const candidates: Array<[number, string]> = [
		...[1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30].map((m): [number, string] => [m, m === 1 ? '* * * * *' : `*/${m} * * * *`]),
		...[1, 2, 3, 4, 6, 8, 12].map((h): [number, string] => [h * 60, h === 1 ? '0 * * * *' : `0 */${h} * * *`]),
		[24 * 60, '0 0 * * *'],
	]
	// Nearest by ratio, so 45 minutes is an hour (not half an hour) and 20 seconds is a minute.
	const distance = (m: number) => Math.abs(Math.log(m / Math.max(minutes, 1 / 60)))
	return candidates.reduce((best, candidate) => (distance(candidate[0]) < distance(best[0]) ? candidate : best))[1]
}

/** A daily job's cron at `at` ("03:15") on Tallinn's clock (pg-boss is given the time zone). */
export function dailyCron(at: string): string {
	const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(at)
	if (!match) throw new Error(`Not a time of day: ${at}`)
	return `${Number(match[2])} ${Number(match[1])} * * *`
}

/** When a daily job at `at` ("03:15", Tallinn's clock) runs next after `now`: today's time, or tomorrow's. */
export function nextDailyRun(at: string, now = new Date()): Date {
	dailyCron(at)
	const today = tallinnToDate(`${tallinnDay(now)}T${at}`)
	if (today.getTime() > now.getTime()) return today
	// A day later is tomorrow in Tallinn even on a 25-hour day: `now` is past today's run by then.
	return tallinnToDate(`${tallinnDay(new Date(now.getTime() + 24 * 60 * 60 * 1000))}T${at}`)
}

export class JobQueue {
	private started: PgBoss | undefined
	private readonly tuning: typeof defaultTuning
	/** The worker of each queue this process works, for waking it when a job is queued here. */
	private readonly workers = new Map<string, string>()

	constructor(private readonly options: JobQueueOptions) {
		this.tuning = { ...defaultTuning, ...options.tuning }
	}

	/** pg-boss itself, from `start()` on. */
	get boss(): PgBoss {
		if (!this.started) throw new Error('the job queue has not been started')
		return this.started
	}

	/** Names of the queues this process works. */
	get working(): string[] {
		return [...this.workers.keys()]
	}

	async start() {
		const { jobs, work } = this.options
		const PgBossClass = await loadPgBoss()
		this.started = new PgBossClass({
			connectionString: this.options.url,
			schema: SCHEMA,
			application_name: 'autohub-jobs',
			// Its own small pool: a burst of jobs never takes the connections pages need.
			max: work ? 4 : 2,
			// Cron and maintenance (expiring, archiving) only where jobs are worked; pg-boss keeps them to one process at a time.
			schedule: work,
			supervise: work,
			cronMonitorIntervalSeconds: this.tuning.cronMonitorIntervalSeconds,
			cronWorkerIntervalSeconds: this.tuning.cronWorkerIntervalSeconds,
		})
		// Unheard, an 'error' event (a lost connection while polling) would stop the process.
		this.started.on('error', (error) => logger.error('job queue error', { err: error }))
		await this.boss.start()
		const queue = {
			policy: 'stately' as const,
			retryLimit: this.tuning.retryLimit,
			retryDelay: this.tuning.retryDelay,
			retryBackoff: this.tuning.retryBackoff,
			expireInSeconds: this.tuning.expireInSeconds,
		}
		const existing = new Map((await this.boss.getQueues()).map((found) => [found.name, found]))
		const missing = jobs.filter((job) => !existing.has(job.name))
		// Processes starting at once would deadlock creating the same queue's table: one at a time,
		// and only on the first start (or when a job is new).
		if (missing.length) {
			await withAdvisoryLock(this.options.url, ADVISORY_LOCKS.jobQueues, async () => {
				for (const job of missing) await this.boss.createQueue(job.name, { name: job.name, ...queue })
			})
		}
		// A changed setting reaches an existing queue.
		for (const job of jobs) {
			const found = existing.get(job.name)
			if (found && (Object.keys(queue) as Array<keyof typeof queue>).some((key) => found[key] !== queue[key])) {
				await this.boss.updateQueue(job.name, { name: job.name, ...queue })
			}
		}
		if (!work) return
		const names = new Set(jobs.map((job) => job.name))
		for (const schedule of await this.boss.getSchedules()) {
			// A job taken out of the list stops being scheduled.
			if (!names.has(schedule.name)) await this.boss.unschedule(schedule.name)
		}
		for (const job of jobs) {
			if (job.dailyAt) await this.boss.schedule(job.name, dailyCron(job.dailyAt), {}, { tz: TIME_ZONE })
			else await this.boss.schedule(job.name, cronFor(job.everyMs()))
			const pollingIntervalSeconds = Math.min(Math.max(job.everyMs() / 1000, 0.5), this.tuning.maxPollingSeconds)
			const id = await this.boss.work(job.name, { pollingIntervalSeconds, batchSize: 1 }, () => this.run(job))
			this.workers.set(job.name, id)
		}
		// As the timers did: every job once at start (a waiting run absorbs the other processes' ones),
		// one whose `atStart` is a question only when it says so.
		for (const job of jobs) {
			if (job.atStart === false || (job.atStart && !(await job.atStart()))) continue
			await this.send(job.name)
		}
	}

	private async run(job: Job) {
		const started = performance.now()
		try {
			await job.run()
			jobRuns.inc({ job: job.name, outcome: 'ok' })
			// Nothing is handed to pg-boss as the job's output: a result need not be JSON.
			logger.debug('job done', { job: job.name, ms: Math.round(performance.now() - started) })
		} catch (error) {
			jobRuns.inc({ job: job.name, outcome: 'failed' })
			logger.error('background job failed', { job: job.name, err: error })
			// What pg-boss keeps of the failure (in its job row) is the scrubbed message the log has.
			throw new Error(String(describeError(error).message))
		}
	}

	/**
	 * Queues a run of a job (none is added while one already waits). `afterSeconds`: not before then.
	 * A worker of this process is woken at once instead of at its next poll.
	 */
	async send(name: string, options: { afterSeconds?: number } = {}) {
		const id = await this.boss.send(name, {}, options.afterSeconds ? { startAfter: options.afterSeconds } : {})
		// No id: a run already waits (the queue is stately), and its worker will find the work.
		const worker = this.workers.get(name)
		if (id && worker && !options.afterSeconds) this.boss.notifyWorker(worker)
		return id
	}

	/** Waits for running jobs (at most `stopTimeoutMs`; unfinished ones are failed and so retried), then closes the pool. */
	async stop() {
		this.workers.clear()
		await this.started?.stop({ graceful: true, timeout: this.tuning.stopTimeoutMs })
	}
}

const state = singleton('job-queue', () => ({ queue: null as JobQueue | null }))

/** Starts this process's queue (web process or worker); a failed start leaves nothing running. */
export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
	if (state.queue) return state.queue
	const queue = new JobQueue(options)
	try {
		await queue.start()
	} catch (error) {
		await queue.stop().catch(() => {})
		throw error
	}
	state.queue = queue
	logger.info(options.work ? 'job queue started' : 'job queue started to send only (RUN_JOBS=false)', { jobs: queue.working })
	return queue
}

/** This process's queue, if it has one (for the tests). */
export function currentJobQueue(): JobQueue | null {
	return state.queue
}

export async function stopJobQueue() {
	const queue = state.queue
	state.queue = null
	await queue?.stop()
}

/**
 * Asks for a run of a job soon (the outbox once an e-mail is queued). Without a queue in this
 * process (the embedded database's timers, a script, a test) there is nothing to ask: the job's
 * next tick finds the work. Never throws: the caller's work is done, a late run is the worst case.
 */
export async function triggerJob(name: string, options: { afterSeconds?: number } = {}) {
	const queue = state.queue
	if (!queue) return
	try {
		await queue.send(name, options)
	} catch (error) {
		logger.warn('job could not be queued; its schedule will run it', { job: name, err: error })
	}
}
