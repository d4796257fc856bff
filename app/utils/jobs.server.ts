import { renewDueSubscriptions } from '~/domain/billing/subscription.server'
import { expireStaleRequests } from '~/domain/service-flow/moves.server'
import { sendAnswerReminders, sendNewRequestDigests, sendNoOfferNudges, sendUnreadChatEmails } from '~/domain/messaging/email-jobs.server'
import { refreshResponseTimes } from '~/domain/service-flow/response-time.server'
import { db } from './db.server'
import { processOutbox } from './email.server'
import { getEnv } from './env.server'
import { logger } from './logger.server'
import { deleteExpiredRateLimits } from './rate-limit.server'
import { singleton } from './singleton.server'
import { cleanUpStoredFiles, stripLegacyImages } from './storage.server'

/**
 * The server's periodic work. Each job runs again only after its previous run finished,
 * so a slow SMTP server never piles runs up. `npm run jobs` runs each once.
 */
/** `atStart: false`: first run after one interval, not while the server is starting. */
type Job = { name: string; everyMs: () => number; run: () => Promise<unknown>; atStart?: false }

const jobs: Job[] = [
	{ name: 'email outbox', everyMs: () => getEnv().OUTBOX_POLL_MS, run: processOutbox },
	{ name: 'cleanup', everyMs: () => 10 * 60 * 1000, run: deleteExpiredRateLimits },
	{ name: 'subscription renewal', everyMs: () => getEnv().SUBSCRIPTION_POLL_MS, run: () => renewDueSubscriptions() },
	// Staged files a failed form or a rolled-back save left, and stored files no row names.
	{ name: 'stored files clean-up', everyMs: () => 60 * 60 * 1000, run: () => cleanUpStoredFiles() },
	{ name: 'old images re-encoded', everyMs: () => 60 * 1000, run: () => stripLegacyImages() },
	// Idempotent (a dedupe key per e-mail): a second process or a rerun sends nothing twice.
	{ name: 'unread chat e-mails', everyMs: () => 60 * 1000, run: () => sendUnreadChatEmails() },
	{ name: 'new-request digests', everyMs: () => 5 * 60 * 1000, run: () => sendNewRequestDigests() },
	{ name: 'answer reminders', everyMs: () => 10 * 60 * 1000, run: () => sendAnswerReminders() },
	{ name: 'no-offer nudges', everyMs: () => 10 * 60 * 1000, run: () => sendNoOfferNudges() },
	// Each request is expired in its own transaction, under the lock every move takes.
	{ name: 'request expiry', everyMs: () => 10 * 60 * 1000, run: () => expireStaleRequests() },
	// Old offers leave the 90 days of the public response time.
	{ name: 'response times', everyMs: () => 6 * 60 * 60 * 1000, run: () => refreshResponseTimes(db), atStart: false },
]

const state = singleton('jobs', () => ({ timers: new Map<string, NodeJS.Timeout>(), running: false }))

export function startBackgroundJobs() {
	if (state.running) return
	state.running = true
	for (const job of jobs) schedule(job, job.atStart === false ? job.everyMs() : 0)
	logger.info('background jobs started', { jobs: jobs.map((j) => j.name) })
}

function schedule(job: Job, delay: number) {
	const timer = setTimeout(async () => {
		try {
			await job.run()
		} catch (error) {
			logger.error('background job failed', { job: job.name, err: error })
		}
		if (state.running) schedule(job, job.everyMs())
	}, delay)
	timer.unref()
	state.timers.set(job.name, timer)
}

export function stopBackgroundJobs() {
	state.running = false
	for (const timer of state.timers.values()) clearTimeout(timer)
	state.timers.clear()
}

/** Every job once, in order (npm run jobs). */
export async function runJobsOnce() {
	for (const job of jobs) {
		const result = await job.run()
		logger.info('job done', { job: job.name, result: result ?? null })
	}
}
