import { renewDueSubscriptions } from '~/domain/billing/renewals.server'
import { expireStaleRequests } from '~/domain/service-flow/request-moves.server'
import { sendAnswerReminders, sendNewRequestDigests, sendNoOfferNudges, sendUnreadChatEmails } from '~/domain/messaging/email-jobs.server'
import { sendWarrantyNotices } from '~/domain/service-flow/passport.server'
import { applyRetention } from '~/domain/privacy/retention.server'
import { DATA_EXPORT_JOB, makeWaitingExports } from '~/domain/privacy/data-export.server'
import { sendReminders } from '~/domain/service-flow/reminders.server'
import { sendBookingReminders } from '~/domain/booking/reminders.server'
import { refreshResponseTimes } from '~/domain/service-flow/response-time.server'
import { NEXT_FREE_BATCH, NEXT_FREE_JOB, refreshDueNextFree } from '~/domain/booking/next-free.server'
import { INSTANT_OFFERS_JOB, sendDueInstantOffers } from '~/domain/pricing/price-list-offers.server'
import { noPriceRangesYet, PRICE_RANGES_AT, PRICE_RANGES_JOB, refreshPriceRanges } from '~/domain/pricing/price-ranges-job.server'
import { db } from '~/db/db.server'
import { OUTBOX_JOB, processOutbox } from '~/email/outbox.server'
import { getEnv } from '~/utils/env.server'
import { type Job, nextDailyRun, startJobQueue, stopJobQueue, triggerJob } from '~/jobs/queue.server'
import { logger } from '~/utils/logger.server'
import { jobRuns } from '~/observability/metrics.server'
import { deleteExpiredRateLimits } from '~/utils/rate-limit.server'
import { singleton } from '~/utils/singleton.server'
import { cleanUpStoredFiles, forgetOldHeldUploads, makeMissingVariants, stripLegacyImages } from '~/uploads/storage.server'

/**
 * The server's periodic work, one list for both databases. On PostgreSQL each job is a pg-boss
 * queue with a cron schedule, worked by the web processes (unless RUN_JOBS=false) and by
 * `npm run worker` (job-queue.server.ts, docs/decisions/0084-job-queue.md). On the embedded
 * database each runs on a timer in the one process, again only after its previous run finished,
 * so a slow SMTP server never piles runs up. `npm run jobs` runs each once.
 */
export const backgroundJobs: Job[] = [
	// Queued e-mails wake it at once (enqueueEmail); the schedule is the safety net.
	{ name: OUTBOX_JOB, everyMs: () => getEnv().OUTBOX_POLL_MS, run: deliverOutbox },
	{ name: 'cleanup', everyMs: () => 10 * 60 * 1000, run: deleteExpiredRateLimits },
	{ name: 'subscription-renewal', everyMs: () => getEnv().SUBSCRIPTION_POLL_MS, run: () => renewDueSubscriptions() },
	// Files held for failed forms a day ago, staged files a failed form or a rolled-back save left, and stored files no row names.
	{ name: 'stored-files-clean-up', everyMs: () => 60 * 60 * 1000, run: async () => [await forgetOldHeldUploads(), await cleanUpStoredFiles()] },
	{ name: 'old-images-re-encoded', everyMs: () => 60 * 1000, run: () => stripLegacyImages() },
	// Smaller copies of images stored before issue 18 (decision 0093).
	{ name: 'image-variants-made', everyMs: () => 60 * 1000, run: () => makeMissingVariants() },
	// Idempotent (a dedupe key per e-mail): a second process or a rerun sends nothing twice.
	{ name: 'unread-chat-emails', everyMs: () => 60 * 1000, run: () => sendUnreadChatEmails() },
	{ name: 'new-request-digests', everyMs: () => 5 * 60 * 1000, run: () => sendNewRequestDigests() },
	{ name: 'answer-reminders', everyMs: () => 10 * 60 * 1000, run: () => sendAnswerReminders() },
	{ name: 'no-offer-nudges', everyMs: () => 10 * 60 * 1000, run: () => sendNoOfferNudges() },
	// Instant offers from price lists for new requests the check after their commit missed (a crash, a busy moment; decision 0147).
	{ name: INSTANT_OFFERS_JOB, everyMs: () => 60 * 1000, run: () => sendDueInstantOffers() },
	// Each request is expired in its own transaction, under the lock every move takes.
	{ name: 'request-expiry', everyMs: () => 10 * 60 * 1000, run: () => expireStaleRequests() },
	// A parts warranty ending within 30 days is told once (offers.warranty_notice_at; issue 20).
	{ name: 'warranty-notices', everyMs: () => 60 * 60 * 1000, run: () => sendWarrantyNotices() },
	// Inspections, tyres and services due, each occurrence told once (vehicle_reminders.notified_key).
	{ name: 'vehicle-reminders', everyMs: () => 60 * 60 * 1000, run: () => sendReminders() },
	// A booked time's reminders, the day before and shortly before, each claimed once (issue 33).
	{ name: 'booking-reminders', everyMs: () => getEnv().BOOKING_REMINDERS_POLL_MS, run: () => sendBookingReminders() },
	// What is no longer needed goes (read notifications, closed chats, contact messages, old log-ins, sent e-mails after 90 days; decisions 0106, 0144).
	{ name: 'retention', everyMs: () => 24 * 60 * 60 * 1000, run: () => applyRetention() },
	// Large data exports, asked for on /settings, made and linked by e-mail (decision 0111).
	{ name: DATA_EXPORT_JOB, everyMs: () => 60 * 1000, run: () => makeWaitingExports() },
	// Old offers leave the 90 days of the public response time.
	{ name: 'response-times', everyMs: () => 6 * 60 * 60 * 1000, run: () => refreshResponseTimes(db), atStart: false },
	// The directory's "next free" and "free this week" (workshops.next_free_at) move on as time passes; 500 workshops a run, the longest unchecked first (issue 33).
	{ name: NEXT_FREE_JOB, everyMs: () => 15 * 60 * 1000, run: refreshNextFreeTimes },
	// The usual price of each service from the completed jobs (issue 35, decision 0148): nightly in the quiet hour, and at a
	// start while there are none yet (a new install, the demo), so a range shows before the first night.
	{ name: PRICE_RANGES_JOB, everyMs: () => 24 * 60 * 60 * 1000, dailyAt: PRICE_RANGES_AT, run: () => refreshPriceRanges(), atStart: noPriceRangesYet },
]

/**
 * The outbox once, and while it had work another look after OUTBOX_POLL_MS (rows waiting for an
 * attachment, the next batch), as the timer did; an empty outbox waits for the next e-mail.
 */
async function deliverOutbox() {
	const result = await processOutbox()
	if (result.sent + result.retried + result.failed > 0) await triggerJob(OUTBOX_JOB, { afterSeconds: getEnv().OUTBOX_POLL_MS / 1000 })
	return result
}

/** A full batch (the first fill after migration 0037) is followed by the next one soon on PostgreSQL, not in 15 minutes. */
async function refreshNextFreeTimes() {
	const result = await refreshDueNextFree({ limit: NEXT_FREE_BATCH })
	if (result.due >= NEXT_FREE_BATCH) await triggerJob(NEXT_FREE_JOB, { afterSeconds: 30 })
	return result
}

const state = singleton('jobs', () => ({ timers: new Map<string, NodeJS.Timeout>(), running: false }))

/**
 * Starts this process's part of the background jobs. `work: false` (RUN_JOBS=false): on PostgreSQL
 * jobs are only queued, for `npm run worker`; on the embedded database nothing runs them at all.
 * `firstRunAfterMs` delays the embedded timers' first runs only. The job list is a parameter for the tests only.
 */
export async function startBackgroundJobs(options: { work: boolean; firstRunAfterMs?: number }, list: Job[] = backgroundJobs) {
	const env = getEnv()
	if (env.DATABASE_URL) {
		await startJobQueue({ url: env.DATABASE_URL, jobs: list, work: options.work })
		return
	}
	if (!options.work) {
		logger.warn('RUN_JOBS=false on the embedded database: nothing runs the background jobs (e-mails stay in the outbox). A worker cannot share PGlite: unset RUN_JOBS.')
		return
	}
	if (state.running) return
	state.running = true
	// `firstRunAfterMs` (the server's start on PGlite): the first runs wait for it, a quarter second
	// apart, so they neither delay the first pages nor queue all at once on the one connection.
	const after = options.firstRunAfterMs ?? 0
	list.forEach((job, index) => {
		if (job.atStart === false) schedule(job, nextDelay(job))
		else schedule(job, after && after + index * 250, job.atStart)
	})
	logger.info('background jobs started', { jobs: list.map((j) => j.name) })
}

/** The wait for a job's next run on a timer: until its daily time on Tallinn's clock, or one interval. */
function nextDelay(job: Job) {
	return job.dailyAt ? Math.max(0, nextDailyRun(job.dailyAt).getTime() - Date.now()) : job.everyMs()
}

/** A run of the job after `delay` (only if `onlyIf` says so, for a run at start), then the next ones. */
function schedule(job: Job, delay: number, onlyIf?: () => Promise<boolean>) {
	const timer = setTimeout(async () => {
		try {
			if (!onlyIf || (await onlyIf())) {
				await job.run()
				jobRuns.inc({ job: job.name, outcome: 'ok' })
			}
		} catch (error) {
			jobRuns.inc({ job: job.name, outcome: 'failed' })
			logger.error('background job failed', { job: job.name, err: error })
		}
		if (state.running) schedule(job, nextDelay(job))
	}, delay)
	timer.unref()
	state.timers.set(job.name, timer)
}

export async function stopBackgroundJobs() {
	state.running = false
	for (const timer of state.timers.values()) clearTimeout(timer)
	state.timers.clear()
	await stopJobQueue()
}

/** Every job once, in order (npm run jobs). */
export async function runJobsOnce() {
	for (const job of backgroundJobs) {
		const result = await job.run()
		logger.info('job done', { job: job.name, result: result ?? null })
	}
}
