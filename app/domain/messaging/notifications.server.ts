import { and, count, eq, sql } from 'drizzle-orm'
import { notifications, reviews, users } from '~/db/schema'
import { requestMatchesWorkshop, workshopOwnerNotBlocked } from '~/db/sql'
import { reminderMessages, reminderRequestPath } from '~/domain/service-flow/reminders'
import { type Language } from '~/i18n/config'
import { db, queryRows, type DbOrTx } from '~/db/db.server'
import { cacheListenerReady } from '~/caching/cache-bus.server'
import { forgetUsers, userCache } from '~/caching/user-cache.server'
import { encodeId } from '~/utils/public-id'
import { notFound } from '~/utils/errors'
import { emailNotifications, type StoredNotification } from './emails.server'
import { notificationMessage } from './notification-text.server'
import { CHAT_NOTIFICATION_KEY, NOTIFICATION_LIST_SIZE, notificationTarget, type NotificationList } from './notifications'

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

/**
 * Created in the transaction of the event it reports, so it exists exactly when the event does;
 * the e-mail of the same event is queued with it (emails.server.ts).
 */
export async function notify(tx: DbOrTx, items: NewNotification | NewNotification[]) {
	const rows = Array.isArray(items) ? items : [items]
	if (!rows.length) return
	const stored = await tx
		.insert(notifications)
		.values(rows.map((row) => ({ ...row, messageParams: row.messageParams ?? {} })))
		.returning({
			id: notifications.id,
			userId: notifications.userId,
			messageKey: notifications.messageKey,
			messageParams: notifications.messageParams,
			receivedId: notifications.receivedId,
		})
	await forgetUsers(tx, 'notifications', stored.map((row) => row.userId))
	await emailNotifications(tx, stored)
}

/**
 * Tells every workshop the request matches (its services, brand and city: `requestMatchesWorkshop`)
 * about it, in one statement however many workshops there are. Blocked owners are not told.
 */
export async function notifyMatchingWorkshops(
	tx: DbOrTx,
	input: { requestId: string; params: Record<string, string | number>; onlyNew?: boolean },
): Promise<number> {
	// A widened request tells only the workshops it did not reach before.
	const notToldYet = input.onlyNew
		? sql`and not exists (select 1 from notifications n where n.user_id = w.user_id and n.received_id = r.id and n.message_key = 'notifications.newRequest')`
		: sql``
	const stored = await queryRows<StoredNotification>(
		tx,
		sql`
		insert into notifications (user_id, type, message_key, message_params, received_id)
		select w.user_id, ${NotificationType.dialog}, 'notifications.newRequest', ${JSON.stringify(input.params)}::jsonb, r.id
		from service_requests r
		join workshops w on ${requestMatchesWorkshop()} and ${workshopOwnerNotBlocked}
		where r.id = ${input.requestId} ${notToldYet}
		returning id, user_id as "userId", message_key as "messageKey", message_params as "messageParams", received_id as "receivedId"`,
	)
	await forgetUsers(tx, 'notifications', stored.map((row) => row.userId))
	await emailNotifications(tx, stored)
	return stored.length
}

/** Tells every administrator who is not blocked (a dispute to settle, a review reported): a dialog notice each. */
export async function notifyAdmins(tx: DbOrTx, notice: Pick<NewNotification, 'messageKey' | 'messageParams' | 'receivedId'>) {
	const admins = await tx.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), eq(users.blocked, false)))
	await notify(tx, admins.map((admin) => ({ ...notice, userId: admin.id, type: NotificationType.dialog })))
}

/**
 * The bell's badge on every signed-in page: the kept list's count. While this process listens, a
 * miss reads the list (one query) and keeps it, so the next page and the next poll read nothing;
 * otherwise one indexed count (notifications_user_unread_idx).
 */
export async function countUnread(userId: string): Promise<number> {
	if (cacheListenerReady()) return (await keptList(userId)).unread
	const [row] = await db
		.select({ n: count() })
		.from(notifications)
		.where(and(eq(notifications.userId, userId), eq(notifications.isRead, false)))
	return row?.n ?? 0
}

type NotificationRow = {
	id: string
	type: number
	message_key: string
	message_params: Record<string, string | number>
	received_id: string
	is_read: boolean
	created_at: Date | string
	unread: number | string
}

/**
 * A user's newest notifications and unread count as the database last said, with the list in
 * each language it was asked in. Kept per user until a change to the user's notifications
 * (user-cache.server.ts): most polls find nothing new and read nothing.
 */
type KeptList = { userId: string; rows: NotificationRow[]; unread: number; inLanguage: Partial<Record<Language, NotificationList>> }
const notificationLists = userCache<KeptList>('notifications', { maxEntries: 50_000 })
const keptList = (userId: string) => notificationLists.load(userId, () => readNotificationList(userId, db), (list) => list.userId)

/**
 * The bell's list and badge: kept in memory per user while nothing changed; otherwise ONE indexed
 * query, the newest notifications (notifications_user_created_idx) with the unread count as an
 * uncorrelated sub-select (notifications_user_unread_idx), evaluated once. This is the product's
 * busiest call: every signed-in browser asks every 15 seconds. Inside a transaction (`db_`), read
 * there and not kept.
 */
export async function listNotifications(userId: string, language: Language, db_: DbOrTx = db): Promise<NotificationList> {
	const kept = db_ === db ? await keptList(userId) : await readNotificationList(userId, db_)
	const shown = kept.inLanguage[language]
	if (shown) return shown
	const list: NotificationList = {
		notifications: kept.rows.map((row) => ({
			id: row.id,
			message: notificationMessage(language, row.message_key, row.message_params),
			is_read: row.is_read,
			type: row.type,
			received_id: row.received_id,
			created_at: new Date(row.created_at).toISOString(),
		})),
		unreadNotifications: kept.unread,
	}
	kept.inLanguage[language] = list
	return list
}

async function readNotificationList(userId: string, db_: DbOrTx): Promise<KeptList> {
	const rows = await queryRows<NotificationRow>(
		db_,
		sql`select n.id, n.type, n.message_key, n.message_params, n.received_id, n.is_read, n.created_at,
		           (select count(*) from notifications u where u.user_id = ${userId} and not u.is_read) as unread
		    from notifications n
		    where n.user_id = ${userId}
		    order by n.created_at desc
		    limit ${NOTIFICATION_LIST_SIZE}`,
	)
	return { userId, rows, unread: rows.length ? Number(rows[0]!.unread) : 0, inLanguage: {} }
}

/**
 * Marks one of the user's notifications read and answers the fresh list. Another user's id, or
 * one that does not exist, is "not found" and changes nothing.
 */
export async function readNotification(userId: string, notificationId: string | null, language: Language) {
	if (!notificationId) throw notFound()
	const [row] = await db
		.update(notifications)
		.set({ isRead: true, readAt: sql`coalesce(${notifications.readAt}, now())` })
		.where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)))
		.returning({ id: notifications.id, type: notifications.type, receivedId: notifications.receivedId, messageKey: notifications.messageKey })
	if (!row) throw notFound()
	await forgetUsers(undefined, 'notifications', [userId])
	return { notification: row, list: await listNotifications(userId, language) }
}

export type NotificationDetail = {
	id: string
	type: number
	message: string
	createdAt: string
	/** The page about the related item, and the words of its button. */
	link: { to: string; labelKey: string } | null
	/** A reply to the reader's review: the review and the reply. */
	review: { title: string; rating: number; body: string; reply: string | null } | null
	/** A new chat message: the sender, whose chat the notice opens. */
	chat: { id: string; name: string } | null
}

/** One of the user's notifications with what its dialog shows (type 1 opens a dialog, spec §2). */
export async function getNotificationDetail(userId: string, notificationId: string, language: Language): Promise<NotificationDetail> {
	const [row] = await db
		.select()
		.from(notifications)
		.where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)))
	if (!row) throw notFound()
	const detail: NotificationDetail = {
		id: row.id,
		type: row.type,
		message: notificationMessage(language, row.messageKey, row.messageParams),
		createdAt: row.createdAt.toISOString(),
		link: null,
		review: null,
		chat: null,
	}
	if (row.messageKey === CHAT_NOTIFICATION_KEY) {
		detail.chat = { id: row.receivedId, name: String(row.messageParams.name ?? '') }
		detail.link = { to: `/chat/${encodeId(row.receivedId)}`, labelKey: 'notifications.openChat' }
	} else if (row.messageKey === 'notifications.newRequest') {
		detail.link = { to: `/customer-request-details/${encodeId(row.receivedId)}`, labelKey: 'notifications.openRequest' }
	} else if (row.messageKey === 'notifications.extraWorkRequested' || row.messageKey === 'notifications.extraWorkWithdrawn') {
		detail.link = { to: `/work-progress/${encodeId(row.receivedId)}#extra-work`, labelKey: 'notifications.openWork' }
	} else if (row.messageKey === 'notifications.bookingReminder') {
		detail.link = { to: `/work-progress/${encodeId(row.receivedId)}`, labelKey: 'notifications.openWork' }
	} else if (row.messageKey === 'notifications.billProposed') {
		detail.link = { to: `/work-progress/${encodeId(row.receivedId)}#final-bill`, labelKey: 'notifications.openWork' }
	} else if (row.messageKey === 'notifications.warrantyEnding') {
		detail.link = { to: `/vehicle-details/${encodeId(row.receivedId)}#warranty`, labelKey: 'notifications.openVehicle' }
	} else if (row.messageKey in reminderMessages) {
		const kind = reminderMessages[row.messageKey as keyof typeof reminderMessages]
		detail.link = { to: reminderRequestPath(row.receivedId, kind), labelKey: 'notifications.askForOffers' }
	} else if (row.messageKey === 'notifications.reviewReported') {
		detail.link = { to: '/admin/reviews', labelKey: 'notifications.openReviews' }
	} else if (row.messageKey === 'notifications.billDisputeOpened') {
		detail.link = { to: '/admin/disputes', labelKey: 'notifications.openDisputes' }
	} else if (row.messageKey === 'notifications.requestExpiredCustomer') {
		detail.link = { to: `/request-details/${encodeId(row.receivedId)}`, labelKey: 'notifications.openRequest' }
	} else if (row.messageKey === 'notifications.reviewHiddenWorkshop' || row.messageKey === 'notifications.reviewKeptWorkshop') {
		detail.link = { to: `/customer-reviews#review-${encodeId(row.receivedId)}`, labelKey: 'notifications.openOwnReviews' }
	} else if (row.messageKey === 'notifications.reviewReply' || row.messageKey === 'notifications.reviewHidden' || row.messageKey === 'notifications.reviewKept') {
		const [review] = await db
			.select({
				title: reviews.title,
				rating: reviews.rating,
				body: reviews.body,
				reply: reviews.reply,
				requestId: reviews.requestId,
			})
			.from(reviews)
			.where(and(eq(reviews.id, row.receivedId), eq(reviews.customerId, userId)))
		if (review) {
			detail.review = { title: review.title, rating: review.rating, body: review.body, reply: review.reply }
			detail.link = { to: `/service-details/${encodeId(review.requestId)}`, labelKey: 'notifications.openService' }
		}
	} else if (row.messageKey.startsWith('billing:')) {
		detail.link = { to: '/subscription', labelKey: 'notifications.openSubscription' }
	} else if (row.type !== NotificationType.dialog) {
		detail.link = { to: notificationTarget({ id: row.id, type: row.type, received_id: row.receivedId }), labelKey: 'notifications.open' }
	}
	return detail
}
