import { encodeId } from '~/utils/public-id'

/** A notification as the JSON API and the portal's scripts see it (spec §3, §7). */
export type NotificationItem = {
	id: string
	message: string
	is_read: boolean
	type: number
	received_id: string
	created_at: string
}

export type NotificationList = { notifications: NotificationItem[]; unreadNotifications: number }

/**
 * Where opening a notification leads (spec §2): type 1 opens a dialog about the related item
 * (its page with JavaScript off), 2 the offers to compare, 4 the feedback form, 5 the reviews,
 * any other type the workshop's bid.
 */
export function notificationTarget(item: Pick<NotificationItem, 'id' | 'type' | 'received_id'>): string {
	const related = encodeId(item.received_id)
	switch (item.type) {
		case 1:
			return `/notifications/${encodeId(item.id)}`
		case 2:
			return `/compaire-offers/${related}`
		case 4:
			return `/leave-feedback/${related}`
		case 5:
			return '/customer-reviews'
		default:
			return `/workshop-bid-details/${related}`
	}
}

/** How many notifications the bell and the JSON call list (the newest). */
export const NOTIFICATION_LIST_SIZE = 20
/** The bell asks again this often while the user is signed in (spec §8). */
export const NOTIFICATION_POLL_MS = 15_000

/** A new chat message: type 1, the sender as the related id; it opens the chat with them. */
export const CHAT_NOTIFICATION_KEY = 'notifications.newChatMessage'
