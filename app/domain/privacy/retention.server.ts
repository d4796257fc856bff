import { and, isNotNull, lt, sql } from 'drizzle-orm'
import { chatMessages, contactMessages, dataExports, notifications, sessions } from '~/db/schema'
import { valueList } from '~/db/sql'
import { statusLists } from '~/domain/service-flow/status'
import { db } from '~/db/db.server'
import { monthsBefore, RETENTION_MONTHS } from './retention'

export type RetentionResult = { readNotifications: number; closedChats: number; contactMessages: number; logIns: number; dataExports: number }

/**
 * Removes what the portal no longer needs (RETENTION_MONTHS, decision 0106), as of `now` (tests
 * move the clock). Each kind is one statement: a run that stops half way leaves whole kinds done,
 * and the next run does the rest. Run daily by the job 'retention'.
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

	// A data export is kept a week (decision 0111); its file goes with the row (the clean-up job).
	const exports = await db.delete(dataExports).where(lt(dataExports.expiresAt, now)).returning({ id: dataExports.id })

	return {
		readNotifications: readNotifications.length,
		closedChats: closedChats.length,
		contactMessages: contact.length,
		logIns: logIns.length,
		dataExports: exports.length,
	}
}
