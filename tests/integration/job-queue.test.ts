import { eq } from 'drizzle-orm'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { emailOutbox } from '~/db/schema'
import { db } from '~/db/db.server'
import { resetEnvCache } from '~/utils/env.server'
import { currentJobQueue, type Job, JobQueue } from '~/jobs/queue.server'
import { backgroundJobs, startBackgroundJobs, stopBackgroundJobs } from '~/jobs/schedule.server'
import { logger } from '~/utils/logger.server'
import { startup } from '~/utils/startup.server'
import { createCustomer } from '#tests/support/accounts'
import { useSmtpSink } from '#tests/support/use-smtp-sink'

/**
 * Issue 17: the background jobs. On PostgreSQL a pg-boss queue per job (decision 0084): one run per
 * cron tick across processes, retries, a worker process that delivers what a web process queued.
 * On the embedded database the timers in the one process, as before.
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL)
const sink = useSmtpSink()

afterEach(() => {
	vi.restoreAllMocks()
})

// Registered after the sink's: runs before it stops. The tests run in order: the web queue of the
// RUN_JOBS=false test and its e-mail left waiting are the next test's starting point.
afterAll(async () => {
	await stopBackgroundJobs()
	delete process.env.RUN_JOBS
	resetEnvCache()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `condition` holds, looking every 50 ms. */
async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
	const deadline = Date.now() + timeoutMs
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`)
		await sleep(50)
	}
}

const mailTo = (email: string) => sink.received.filter((mail) => mail.to.includes(email))
/** A new customer's welcome e-mail reaches the SMTP server within seconds, and is marked sent. */
async function expectWelcomeMailDelivered() {
	const customer = await createCustomer()
	const queued = Date.now()
	await until(() => mailTo(customer.email).length === 1)
	expect(Date.now() - queued).toBeLessThan(5_000)
	await until(async () => (await outboxStatus(customer.email))[0] === 'sent')
}
const outboxStatus = async (email: string) => (await db.select({ status: emailOutbox.status }).from(emailOutbox).where(eq(emailOutbox.to, email))).map((row) => row.status)

describe.skipIf(!onServer)('the job queue on PostgreSQL', () => {
	const url = () => process.env.DATABASE_URL!
	/** pg-boss looks for due cron ticks every second instead of every 30 (a tick is still a minute). */
	const fast = { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1, maxPollingSeconds: 0.5 }

	test('a scheduled job runs once per tick even with two processes working its queue', { timeout: 90_000 }, async () => {
		let runs = 0
		const job: Job = { name: 'every-minute', everyMs: () => 60_000, run: async () => void runs++, atStart: false }
		// Started before second 50, the first run and the 4 s after it end before the next minute's tick.
		if (new Date().getSeconds() >= 50) await sleep((61 - new Date().getSeconds()) * 1000)
		const first = new JobQueue({ url: url(), jobs: [job], work: true, tuning: fast })
		const second = new JobQueue({ url: url(), jobs: [job], work: true, tuning: fast })
		try {
			// Two processes starting at once, as after a deploy.
			await Promise.all([first.start(), second.start()])
			expect([first.working, second.working]).toEqual([['every-minute'], ['every-minute']])
			await until(() => runs >= 1)
			// Both look for due ticks every second and poll twice a second: a second run of the tick would show by now.
			await sleep(4_000)
			expect(runs).toBe(1)
		} finally {
			await Promise.all([first.stop(), second.stop()])
		}
	})

	test('a job that throws is logged and retried', async () => {
		const failures = vi.spyOn(logger, 'error').mockImplementation(() => {})
		let attempts = 0
		const job: Job = {
			name: 'flaky',
			everyMs: () => 60 * 60_000,
			run: async () => {
				if (++attempts === 1) throw new Error('the SMTP server said no')
				return { done: true }
			},
			atStart: false,
		}
		const queue = new JobQueue({ url: url(), jobs: [job], work: true, tuning: { ...fast, retryDelay: 1, retryBackoff: false } })
		try {
			await queue.start()
			const id = await queue.send('flaky')
			await until(async () => (await queue.boss.getJobById('flaky', id!))?.state === 'completed')
			expect(attempts).toBe(2)
			expect(failures).toHaveBeenCalledWith('background job failed', expect.objectContaining({ job: 'flaky' }))
			const stored = await queue.boss.getJobById('flaky', id!)
			expect(stored?.retryCount).toBe(1)
		} finally {
			await queue.stop()
		}
	})

	test('RUN_JOBS=false: a web process works no queue, but still queues the jobs', async () => {
		process.env.RUN_JOBS = 'false'
		resetEnvCache()
		await startup()
		const web = currentJobQueue()!
		expect(web.working).toEqual([])

		const customer = await createCustomer()
		// The welcome e-mail woke the outbox job; nothing in this process runs it.
		expect(await web.boss.getQueueSize('email-outbox')).toBe(1)
		await sleep(2_500)
		expect(await outboxStatus(customer.email)).toEqual(['pending'])
		expect(mailTo(customer.email)).toEqual([])
	})

	test('a worker delivers what a web process queued, within seconds', async () => {
		// As `npm run worker` does, beside the web process of the test before (RUN_JOBS=false).
		const worker = new JobQueue({ url: url(), jobs: backgroundJobs, work: true })
		try {
			await worker.start()
			expect(worker.working).toContain('email-outbox')
			// The e-mail left waiting before is sent by the worker's first round.
			await until(() => sink.received.length >= 1)

			// The new e-mail wakes the worker's outbox job (or its follow-up run finds it), not the minute of its schedule.
			await expectWelcomeMailDelivered()
		} finally {
			await worker.stop()
		}
	})
})

describe.skipIf(onServer)('the jobs on the embedded database', () => {
	test('RUN_JOBS=false: nothing runs the jobs, and the log says so', async () => {
		const warnings = vi.spyOn(logger, 'warn').mockImplementation(() => {})
		process.env.RUN_JOBS = 'false'
		resetEnvCache()
		await startup()
		expect(warnings).toHaveBeenCalledWith(expect.stringContaining('RUN_JOBS=false on the embedded database'))
		expect(currentJobQueue()).toBeNull()
		const customer = await createCustomer()
		await sleep(500)
		expect(await outboxStatus(customer.email)).toEqual(['pending'])
		delete process.env.RUN_JOBS
		resetEnvCache()
	})

	test('each job runs on a timer in the process, again after its previous run, until stopped', async () => {
		let runs = 0
		let running = 0
		let mostAtOnce = 0
		const job: Job = {
			name: 'tick',
			everyMs: () => 20,
			run: async () => {
				mostAtOnce = Math.max(mostAtOnce, ++running)
				await sleep(30)
				runs++
				running--
			},
		}
		await startBackgroundJobs({ work: true }, [job])
		await until(() => runs >= 3, 5_000)
		await stopBackgroundJobs()
		// A run lasts longer than the interval, yet the next waits for it (checked here: the timer
		// loop catches what a job throws).
		expect(mostAtOnce).toBe(1)
		const stopped = runs
		await sleep(200)
		expect(runs - stopped).toBeLessThanOrEqual(1)
	})

	test('at the server’s start the first runs wait (firstRunAfterMs), so the first visitors do not queue behind them', async () => {
		let runs = 0
		const job: Job = { name: 'later', everyMs: () => 20, run: async () => void runs++ }
		await startBackgroundJobs({ work: true, firstRunAfterMs: 400 }, [job])
		try {
			await sleep(200)
			expect(runs).toBe(0)
			await until(() => runs >= 1, 5_000)
		} finally {
			await stopBackgroundJobs()
		}
	})

	test('an e-mail queued through the domain is delivered by the timers within seconds', async () => {
		await startBackgroundJobs({ work: true })
		try {
			// The e-mail left waiting by the first test goes out too.
			await expectWelcomeMailDelivered()
		} finally {
			await stopBackgroundJobs()
		}
	})
})
