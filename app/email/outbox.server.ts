import fs from 'node:fs/promises'
import path from 'node:path'
import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Transporter } from 'nodemailer'
import { emailOutbox, uploads, type EmailAttachment } from '~/db/schema'
import { afterCommit, db, queryRows, type DbOrTx } from '~/db/db.server'
import { getEnv } from '~/utils/env.server'
import { triggerJob } from '~/jobs/queue.server'
import { logger } from '~/utils/logger.server'
import { StoredFileMissing } from '~/uploads/file-store.server'
import { lazily } from '~/utils/singleton.server'
import { readStoredFile } from '~/uploads/storage.server'

/**
 * Every e-mail goes into the outbox table inside the transaction of the event that sends it,
 * so a failed write sends nothing and a sent e-mail is never lost. A worker delivers it:
 * over SMTP when SMTP_URL is set (retrying with backoff while the server is down), otherwise
 * it stays in the outbox with status `logged` and is written as an .eml file under DATA_DIR/mail.
 */
export type OutgoingEmail = {
	to: string
	subject: string
	text: string
	html?: string
	attachments?: EmailAttachment[]
	headers?: Record<string, string>
	/** The event this e-mail reports: a second e-mail for the same key is dropped. */
	dedupeKey?: string
}

/** Queues an e-mail; answers its id, or null when one for the same event (`dedupeKey`) is already queued. */
export async function enqueueEmail(tx: DbOrTx, email: OutgoingEmail & { dedupeKey: string }): Promise<string | null>
export async function enqueueEmail(tx: DbOrTx, email: OutgoingEmail & { dedupeKey?: undefined }): Promise<string>
export async function enqueueEmail(tx: DbOrTx, email: OutgoingEmail): Promise<string | null>
export async function enqueueEmail(tx: DbOrTx, email: OutgoingEmail): Promise<string | null> {
	const [row] = await tx
		.insert(emailOutbox)
		.values({
			to: email.to,
			subject: email.subject,
			text: email.text,
			html: email.html ?? null,
			attachments: email.attachments ?? [],
			headers: email.headers ?? {},
			dedupeKey: email.dedupeKey ?? null,
		})
		.onConflictDoNothing({ target: emailOutbox.dedupeKey })
		.returning({ id: emailOutbox.id })
	// On PostgreSQL a worker delivers it now rather than at the next minute's sweep; once committed,
	// so the run finds the row (a burst of e-mails makes one run: the queue holds one waiting run).
	if (row) await afterCommit(tx, () => triggerJob(OUTBOX_JOB), { once: OUTBOX_JOB })
	return row?.id ?? null
}

/** The background job that delivers the outbox (app/jobs/schedule.server.ts). */
export const OUTBOX_JOB = 'email-outbox'

const BATCH = 20
const MAX_ATTEMPTS = 12
/** A claimed e-mail is hidden from other workers this long; a crashed worker's claim expires. */
const LEASE_SECONDS = 120

/** Seconds until the next try: 1, 2, 4, 8 … minutes, at most an hour. */
export function backoffSeconds(attempts: number) {
	return Math.min(60 * 2 ** Math.max(0, attempts - 1), 3600)
}

let transport: Transporter | null | undefined

/** nodemailer, loaded with the first e-mail to send, not at start (decision 0094). */
const loadMailer = lazily(async () => (await import('nodemailer')).default)

async function getTransport(): Promise<Transporter | null> {
	if (transport !== undefined) return transport
	const { SMTP_URL } = getEnv()
	const nodemailer = SMTP_URL ? await loadMailer() : null
	if (transport !== undefined) return transport
	transport = nodemailer
		? nodemailer.createTransport({ url: SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 })
		: null
	return transport
}

/** For tests that point the worker at another SMTP server. */
export function resetEmailTransport() {
	transport?.close()
	transport = undefined
}

type Claimed = Pick<typeof emailOutbox.$inferSelect, 'id' | 'to' | 'subject' | 'text' | 'html' | 'attachments' | 'headers' | 'attempts' | 'createdAt'>

/** An attachment whose file is not in the store yet (its move follows the commit by a moment). */
class AttachmentNotReady extends Error {}
/** How long a missing attachment is waited for before it counts as a failure. */
const ATTACHMENT_WAIT_MS = 10 * 60 * 1000

/**
 * Sends what is due, once. Claims rows in one statement (SKIP LOCKED, so several processes can
 * run it), sends outside any transaction, then records the result.
 * Returns how many were delivered (or logged) and how many will be retried.
 */
export async function processOutbox(): Promise<{ sent: number; retried: number; failed: number }> {
	const claimed = await queryRows<Claimed>(
		db,
		sql`update ${emailOutbox} set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
		    where id in (select id from ${emailOutbox}
		                 where status = 'pending' and next_attempt_at <= now()
		                 order by next_attempt_at limit ${BATCH} for update skip locked)
		    returning id, "to", subject, text, html, attachments, headers, attempts, created_at as "createdAt"`,
	)
	const result = { sent: 0, retried: 0, failed: 0 }
	if (!claimed.length) return result
	const mailer = await getTransport()
	const { MAIL_FROM } = getEnv()

	for (const email of claimed) {
		try {
			if (!mailer) {
				const file = await keepAsFile(email, MAIL_FROM)
				logger.info('email kept, not sent: no SMTP_URL', { id: email.id, file })
				await db.update(emailOutbox).set({ status: 'logged', sentAt: new Date(), lastError: null }).where(eq(emailOutbox.id, email.id))
				result.sent++
				continue
			}
			await mailer.sendMail(await mailOf(email, MAIL_FROM))
			await db.update(emailOutbox).set({ status: 'sent', sentAt: new Date(), lastError: null }).where(eq(emailOutbox.id, email.id))
			logger.info('email sent', { id: email.id })
			result.sent++
		} catch (error) {
			if (error instanceof AttachmentNotReady && Date.now() - new Date(email.createdAt).getTime() < ATTACHMENT_WAIT_MS) {
				// The attachment's transaction has committed and its file is being moved into the
				// store (decision 0071): look again in a moment, without counting an attempt.
				await db
					.update(emailOutbox)
					.set({ attempts: sql`${emailOutbox.attempts} - 1`, nextAttemptAt: sql`now() + interval '2 seconds'` })
					.where(eq(emailOutbox.id, email.id))
				result.retried++
				continue
			}
			const message = error instanceof Error ? error.message : String(error)
			const giveUp = email.attempts >= MAX_ATTEMPTS
			await db
				.update(emailOutbox)
				.set({
					status: giveUp ? 'failed' : 'pending',
					lastError: message.slice(0, 500),
					nextAttemptAt: sql`now() + make_interval(secs => ${backoffSeconds(email.attempts)})`,
				})
				.where(eq(emailOutbox.id, email.id))
			logger.warn(giveUp ? 'email failed for good' : 'email will be retried', { id: email.id, attempts: email.attempts, err: error })
			if (giveUp) result.failed++
			else result.retried++
		}
	}
	return result
}

/** The message of an outbox row, as nodemailer sends it. */
async function mailOf(email: Claimed, from: string) {
	return {
		from,
		to: email.to,
		subject: email.subject,
		text: email.text,
		html: email.html ?? undefined,
		headers: email.headers,
		// The outbox id lets a receiving system drop a duplicate after a crash between send and update.
		messageId: `<${email.id}@outbox.autohub>`,
		attachments: await loadAttachments(email.attachments),
	}
}

/**
 * Without SMTP the e-mail is written as an .eml file under DATA_DIR/mail (open it with any mail
 * program; the log names the file but never the recipient or the text, which may hold a reset link).
 */
async function keepAsFile(email: Claimed, from: string): Promise<string | null> {
	const { dataDir } = getEnv()
	if (dataDir.startsWith('memory://')) return null
	const message = await (await loadMailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' }).sendMail(await mailOf(email, from))
	const folder = path.join(dataDir, 'mail')
	await fs.mkdir(folder, { recursive: true })
	const file = path.join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${email.id}.eml`)
	await fs.writeFile(file, message.message as Buffer, { mode: 0o600 })
	return path.relative(process.cwd(), file)
}

async function loadAttachments(attachments: EmailAttachment[]) {
	if (!attachments.length) return undefined
	const ids = attachments.flatMap((a) => ('uploadId' in a ? [a.uploadId] : []))
	const rows = ids.length ? await db.select().from(uploads).where(inArray(uploads.id, ids)) : []
	return Promise.all(
		attachments.map(async (attachment) => {
			// A text made with the e-mail (an e-invoice) is in the row itself.
			if (!('uploadId' in attachment)) return { filename: attachment.filename, content: attachment.content, contentType: attachment.contentType }
			const upload = rows.find((row) => row.id === attachment.uploadId)
			if (!upload) throw new Error(`attachment ${attachment.uploadId} is missing`)
			const content = await readStoredFile(upload.storageKey).catch((error: unknown) => {
				throw error instanceof StoredFileMissing ? new AttachmentNotReady(`attachment ${attachment.uploadId} is not stored yet`) : error
			})
			return { filename: attachment.filename, content, contentType: upload.mimeType }
		}),
	)
}

/** Makes everything waiting in the outbox due now (used when SMTP comes back, and by tests). */
export async function retryOutboxNow() {
	await db
		.update(emailOutbox)
		.set({ nextAttemptAt: new Date() })
		.where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, sql`now() + interval '1 day'`)))
}
