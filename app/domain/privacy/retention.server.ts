import { and, inArray, isNotNull, lt, sql } from 'drizzle-orm'
import { auditLog, chatMessages, contactMessages, dataExports, emailOutbox, notifications, sessions, widgetRequests } from '~/db/schema'
import { LOG_IN_ACTIONS } from '~/domain/admin/audit.server'
import { valueList } from '~/db/sql'
import { statusLists } from '~/domain/service-flow/status'
import { db, queryRows } from '~/db/db.server'
import { monthsBefore, RETENTION_MONTHS, SENT_EMAIL_DAYS, WIDGET_REQUEST_DAYS } from './retention'

export type RetentionResult = { readNotifications: number; closedChats: number; contactMessages: number; logIns: number; signIns: number; dataExports: number; sentEmails: number; widgetRequests: number }

/** Sent e-mails deleted per statement: each a short transaction, so a busy outbox is never locked for long. */
export const SENT_EMAILS_BATCH = 1000

/**
 * Removes what the portal no longer needs (RETENTION_MONTHS and SENT_EMAIL_DAYS; decisions 0106,
 * 0144), as of `now` (tests move the clock). Each kind is one statement (sent e-mails, the biggest,
 * in batches): a run that stops half way leaves whole kinds done, and the next run does the rest.
 * Run daily by the job 'retention'.
 */
export async function applyRetention(now = new Date()): Promise<RetentionResult> {
	const before = (months: number) => monthsBefore(now, months)

	const readNotifications = await db
		.delete(notifications)
		.where(and(isNotNull(notifications.readAt), lt(notifications.readAt, before(RETENTION_MONTHS.readNotifications))))
		.returning({ id: notifications.id })

	// A chat is between a customer and a workshop; it is closed when none of the requests they share
	// (the customer's, with an offer of the workshop) is still under way.
	const chatCutoff = before(RETENTION_MONTHS.closedChats)
	const closedChats = await db
		.delete(chatMessages)
		.where(
			and(
				lt(chatMessages.createdAt, chatCutoff),
				sql`not exists (
					select 1 from offers o
					join service_requests r on r.id = o.request_id
					join workshops w on w.id = o.workshop_id
					where r.status in ${valueList(statusLists.activeRequests)}
					  and ((r.customer_id = ${chatMessages.senderId} and w.user_id = ${chatMessages.receiverId})
					    or (r.customer_id = ${chatMessages.receiverId} and w.user_id = ${chatMessages.senderId})))`,
			),
		)
		.returning({ id: chatMessages.id })

	const contact = await db
		.delete(contactMessages)
		.where(lt(contactMessages.createdAt, before(RETENTION_MONTHS.contactMessages)))
		.returning({ id: contactMessages.id })

	const logIns = await db
		.delete(sessions)
		.where(lt(sessions.expiresAt, before(RETENTION_MONTHS.logIns)))
		.returning({ id: sessions.id })

	// The audit log's sign-in records (issue 36) are log-in records too: as long, from the sign-in.
	const signIns = await db
		.delete(auditLog)
		.where(and(inArray(auditLog.action, [...LOG_IN_ACTIONS]), lt(auditLog.createdAt, before(RETENTION_MONTHS.logIns))))
		.returning({ id: auditLog.id })

	// A data export is kept a week (decision 0111); its file goes with the row (the clean-up job).
	const exports = await db.delete(dataExports).where(lt(dataExports.expiresAt, now)).returning({ id: dataExports.id })

	// A widget's request waiting for its link (decision 0153): a week after the link ended.
	const widget = await db
		.delete(widgetRequests)
		.where(lt(widgetRequests.expiresAt, new Date(now.getTime() - WIDGET_REQUEST_DAYS * 24 * 60 * 60 * 1000)))
		.returning({ id: widgetRequests.id })

	const sentEmails = await deleteSentEmails(new Date(now.getTime() - SENT_EMAIL_DAYS * 24 * 60 * 60 * 1000))

	return {
		readNotifications: readNotifications.length,
		closedChats: closedChats.length,
		contactMessages: contact.length,
		logIns: logIns.length,
		signIns: signIns.length,
		dataExports: exports.length,
		sentEmails,
		widgetRequests: widget.length,
	}
}

/**
 * Sent (or kept-as-file) e-mails older than `before`, SENT_EMAILS_BATCH rows a statement until none
 * is left: the first run after a long time (millions of rows) never holds one long transaction, and
 * the outbox worker's claims go on between batches. `created_at` (indexed) bounds the search, as an
 * e-mail is sent after it is made. Pending and failed ones stay whatever their age. The dedupe keys of
 * the e-mail jobs look back at most 7 days, so nothing deleted here is sent twice.
 */
async function deleteSentEmails(before: Date): Promise<number> {
	let total = 0
	for (;;) {
		const rows = await queryRows<{ id: string }>(
			db,
			sql`delete from ${emailOutbox} where id in (
			      select id from ${emailOutbox}
			      where created_at < ${before} and status in ('sent', 'logged') and sent_at < ${before}
			      limit ${SENT_EMAILS_BATCH})
			    returning id`,
		)
		total += rows.length
		if (rows.length < SENT_EMAILS_BATCH) return total
	}
}
