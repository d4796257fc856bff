import { and, count, eq, sql } from 'drizzle-orm'
import { notifications } from '~/db/schema'
import { db, type DbOrTx } from '~/utils/db.server'

/**
 * Notification types (spec §2): 1 opens a dialog (a new request for a workshop, a reply to a
 * review for a customer), 2 a new offer, 3 an offer selected, rejected or its request cancelled,
 * 4 a job completed, 5 a new review. Messages are translation keys under common:notifications.
 */
export const NotificationType = { dialog: 1, newOffer: 2, offerChanged: 3, jobCompleted: 4, newReview: 5 } as const

export type NewNotification = {
	userId: string
	type: (typeof NotificationType)[keyof typeof NotificationType]
	messageKey: string
	messageParams?: Record<string, string | number>
	/** The related item's id: a request, an offer or a review. */
	receivedId: string
}

/** Created in the transaction of the event it reports, so it exists exactly when the event does. */
export async function notify(tx: DbOrTx, items: NewNotification | NewNotification[]) {
	const rows = Array.isArray(items) ? items : [items]
	if (!rows.length) return
	await tx.insert(notifications).values(rows.map((row) => ({ ...row, messageParams: row.messageParams ?? {} })))
}

/**
 * Tells every workshop that offers at least one of the request's services about a new request,
 * in one statement however many workshops there are.
 */
export async function notifyMatchingWorkshops(
	tx: DbOrTx,
	input: { requestId: string; serviceIds: string[]; params: Record<string, string | number> },
) {
	if (!input.serviceIds.length) return
	await tx.execute(sql`
		insert into notifications (user_id, type, message_key, message_params, received_id)
		select w.user_id, ${NotificationType.dialog}, 'notifications.newRequest', ${JSON.stringify(input.params)}::jsonb, ${input.requestId}
		from workshops w
		where exists (select 1 from workshop_services ws
		              where ws.workshop_id = w.id
		                and ws.service_id in (${sql.join(
											input.serviceIds.map((id) => sql`${id}::uuid`),
											sql`, `,
										)}))`)
}

/** The bell's badge: one indexed count (notifications_user_unread_idx). */
export async function countUnread(userId: string): Promise<number> {
	const [row] = await db
		.select({ n: count() })
		.from(notifications)
		.where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
	return row?.n ?? 0
}
