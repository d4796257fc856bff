import { and, eq, sql, type SQL } from 'drizzle-orm'
import { chatMessages, notifications } from '~/db/schema'
import { db, queryRows, type DbOrTx, transaction } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { hitRateLimit } from '~/utils/rate-limit.server'
import { forgetUsers } from '~/caching/user-cache.server'
import { type ChatEntry } from './chat'
import { DomainError, tooManyAttempts } from '~/utils/errors'
import { CHAT_NOTIFICATION_KEY } from './notifications'
import { notify, NotificationType } from './notifications.server'

/**
 * Chat between a customer and a workshop that share a request: an offer of the workshop on a
 * request of the customer, in either direction. Anyone else is refused with "You do not have
 * permission." (spec §5), the same answer for a stranger and for an id that does not exist.
 */
const noPermission = () => new DomainError('auth:guard.noPermission', 403)

export type ChatPartner = { id: string; name: string; role: 'customer' | 'workshop' }

/** The offers (o) on requests (r) the two share: the one rule of who may chat, in either direction. */
function sharedOffers(userId: string, otherId: string): SQL {
	return sql`offers o
	           join service_requests r on r.id = o.request_id
	           join workshops ow on ow.id = o.workshop_id
	           where ((r.customer_id = ${userId} and ow.user_id = ${otherId})
	              or (r.customer_id = ${otherId} and ow.user_id = ${userId}))`
}

/** The other party, when the two share a request; otherwise the refusal. One indexed query. */
export async function requireChatPartner(userId: string, otherId: string | null): Promise<ChatPartner> {
	if (!otherId || otherId === userId) throw noPermission()
	const [row] = await queryRows<{ id: string; role: 'customer' | 'workshop'; name: string }>(
		db,
		sql`select u.id, u.role,
		           coalesce(w.workshop_name, u.first_name || ' ' || u.last_name) as name
		    from users u
		    left join workshops w on w.user_id = u.id
		    where u.id = ${otherId} and not u.blocked
		      and exists (select 1 from ${sharedOffers(userId, otherId)})`,
	)
	if (!row) throw noPermission()
	return row
}

/**
 * Where the chat page's "Back to the request" leads: the request the two share (the one the chat
 * was opened from, else the latest), on the reader's own page of it: the customer's request, the
 * workshop's offer on it (both shown in every status, and both link to this chat).
 */
export async function chatRequestLink(userId: string, partnerId: string, requestId: string | null): Promise<string | null> {
	const [row] = await queryRows<{ requestId: string; offerId: string; asCustomer: boolean }>(
		db,
		sql`select r.id as "requestId", o.id as "offerId", r.customer_id = ${userId} as "asCustomer"
		    from ${sharedOffers(userId, partnerId)}
		    order by coalesce(r.id = ${requestId}::uuid, false) desc, o.created_at desc
		    limit 1`,
	)
	if (!row) return null
	return row.asCustomer ? `/request-details/${encodeId(row.requestId)}` : `/workshop-bid-details/${encodeId(row.offerId)}`
}

const CHAT_HISTORY = 200

/** The conversation, oldest first (the newest 200), read through chat_messages_pair_idx. */
export async function getChat(userId: string, otherId: string): Promise<ChatEntry[]> {
	const rows = await queryRows<{ sender_id: string; message: string; created_at: Date | string }>(
		db,
		sql`select sender_id, message, created_at from (
		      select sender_id, message, created_at from chat_messages
		      where least(sender_id, receiver_id) = least(${userId}::uuid, ${otherId}::uuid)
		        and greatest(sender_id, receiver_id) = greatest(${userId}::uuid, ${otherId}::uuid)
		      order by created_at desc
		      limit ${CHAT_HISTORY}) latest
		    order by created_at asc`,
	)
	return rows.map((row) => ({ sender_id: row.sender_id, message: row.message, created_at: new Date(row.created_at).toISOString() }))
}

/** Sends one message after the permission check; a flood is refused (30 a minute per sender). */
export async function sendChatMessage(userId: string, otherId: string | null, message: string) {
	const partner = await requireChatPartner(userId, otherId)
	const limit = await hitRateLimit(`chat:${userId}`, { limit: 30, windowSeconds: 60 })
	if (!limit.allowed) throw tooManyAttempts(limit.retryAfterSeconds)
	await transaction(async (tx) => {
		await tx.insert(chatMessages).values({ senderId: userId, receiverId: partner.id, message })
		await notifyChatMessage(tx, { receiverId: partner.id, senderId: userId })
	})
	return partner
}

/**
 * The receiver's bell tells of a new message (type 1: opens the chat with the sender, whose id is
 * the related id). One unread notice per conversation: a further message only brings it to the top.
 */
async function notifyChatMessage(tx: DbOrTx, input: { receiverId: string; senderId: string }) {
	const bumped = await tx
		.update(notifications)
		.set({ createdAt: new Date() })
		.where(
			and(
				eq(notifications.userId, input.receiverId),
				eq(notifications.messageKey, CHAT_NOTIFICATION_KEY),
				eq(notifications.receivedId, input.senderId),
				eq(notifications.isRead, false),
			),
		)
		.returning({ id: notifications.id })
	if (bumped.length) return forgetUsers(tx, 'notifications', [input.receiverId])
	const [sender] = await queryRows<{ name: string }>(
		tx,
		sql`select coalesce(w.workshop_name, u.first_name || ' ' || u.last_name) as name
		    from users u left join workshops w on w.user_id = u.id where u.id = ${input.senderId}`,
	)
	await notify(tx, {
		userId: input.receiverId,
		type: NotificationType.dialog,
		messageKey: CHAT_NOTIFICATION_KEY,
		messageParams: { name: sender?.name ?? '' },
		receivedId: input.senderId,
	})
}

/** Reading a conversation reads its notice too (a no-op, through the partial unread index, when there is none). */
export async function markChatRead(userId: string, otherId: string) {
	const read = await db
		.update(notifications)
		.set({ isRead: true, readAt: new Date() })
		.where(
			and(
				eq(notifications.userId, userId),
				eq(notifications.isRead, false),
				eq(notifications.messageKey, CHAT_NOTIFICATION_KEY),
				eq(notifications.receivedId, otherId),
			),
		)
		.returning({ id: notifications.id })
	if (read.length) await forgetUsers(undefined, 'notifications', [userId])
}
