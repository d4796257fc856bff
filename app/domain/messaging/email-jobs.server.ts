import { sql } from 'drizzle-orm'
import { valueList } from '~/db/sql'
import { statusLists } from '~/domain/service-flow/status'
import { isLanguage, type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { db, queryRows } from '~/utils/db.server'
import { encodeId } from '~/utils/public-id'
import { dateToTallinnInput } from '~/utils/time'
import { notificationMessage } from './notification-text.server'
import { portalLink, sendEmail } from './emails.server'
import { type EmailContent } from './email-templates.server'

/**
 * The e-mails that wait for time to pass (issue 15), run by the background jobs every few
 * minutes and idempotent: each names its e-mail by a dedupe key, so a second run, or a second
 * process, sends nothing twice. `now` is a parameter so that tests can move the clock.
 */

/** The morning digest goes out from this hour on, in the site's time zone. */
export const DIGEST_HOUR = 7

/**
 * Workshops that chose the daily digest get, once a day from 07:00 Tallinn time, one e-mail
 * listing the matching requests of the last 24 hours that are still open; none when there are none.
 */
export async function sendNewRequestDigests(now = new Date()): Promise<number> {
	const local = dateToTallinnInput(now)
	if (Number(local.slice(11, 13)) < DIGEST_HOUR) return 0
	const day = local.slice(0, 10)
	const rows = await queryRows<{ userId: string; email: string; language: string | null; requestId: string; params: Record<string, string | number> }>(
		db,
		sql`select u.id as "userId", u.email, u.preferred_language as language, n.received_id as "requestId", n.message_params as params
		    from notifications n
		    join users u on u.id = n.user_id
		    join service_requests r on r.id = n.received_id
		    where n.message_key = 'notifications.newRequest'
		      and n.created_at > ${now}::timestamptz - interval '24 hours' and n.created_at <= ${now}::timestamptz
		      and u.email_preferences ->> 'newRequests' = 'digest' and not u.blocked
		      and r.status in ${valueList(statusLists.openRequests)}
		      and not exists (select 1 from email_outbox o where o.dedupe_key = 'digest:' || u.id || ':' || ${day})
		    order by u.id, n.created_at`,
	)
	const byUser = new Map<string, typeof rows>()
	for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row])
	let sent = 0
	for (const [userId, requests] of byUser) {
		const { email } = requests[0]!
		const language: Language = isLanguage(requests[0]!.language) ? requests[0]!.language : 'et'
		const { subject, content } = digestEmail(language, requests)
		const queued = await sendEmail(db, { to: email, language, subject, content, optional: { userId, kind: 'newRequests' }, dedupeKey: `digest:${userId}:${day}` })
		if (queued) sent++
	}
	return sent
}

/** The digest's subject and content: a link per request, and one to all open requests. */
export function digestEmail(language: Language, requests: Array<{ requestId: string; params: Record<string, string | number> }>) {
	const t = getFixedT(language, 'common')
	const subject = t('email.digest.subject', { count: requests.length })
	const content: EmailContent = {
		preview: subject,
		heading: subject,
		paragraphs: [t('email.digest.body')],
		items: requests.map((request) => ({
			text: notificationMessage(language, 'notifications.newRequest', request.params),
			url: portalLink(`/customer-request-details/${encodeId(request.requestId)}`, language),
		})),
		action: { label: t('email.digest.action'), url: portalLink('/customer-requests', language) },
	}
	return { subject, content }
}

/** A chat message unread this long is e-mailed to its receiver… */
export const CHAT_UNREAD_MINUTES = 10
/** …at most once an hour per conversation. */
const CHAT_EMAIL_GAP = '1 hour'

/** E-mails the receivers of chat messages left unread, one e-mail per conversation. */
export async function sendUnreadChatEmails(now = new Date()): Promise<number> {
	const rows = await queryRows<{
		receiverId: string
		senderId: string
		latestId: string
		unread: number
		excerpt: string
		email: string
		language: string | null
		senderName: string
	}>(
		db,
		sql`select m.receiver_id as "receiverId", m.sender_id as "senderId", (array_agg(m.id order by m.created_at desc))[1] as "latestId",
		           count(*)::int as unread, left((array_agg(m.message order by m.created_at desc))[1], 200) as excerpt,
		           u.email, u.preferred_language as language, coalesce(w.workshop_name, s.first_name || ' ' || s.last_name) as "senderName"
		    from chat_messages m
		    join users u on u.id = m.receiver_id
		    join users s on s.id = m.sender_id
		    left join workshops w on w.user_id = s.id
		    where m.read_at is null
		      and m.created_at <= ${now}::timestamptz - make_interval(mins => ${CHAT_UNREAD_MINUTES})
		      and m.created_at > ${now}::timestamptz - interval '7 days'
		      and not u.blocked and coalesce(u.email_preferences ->> 'chat', 'on') <> 'off'
		    group by m.receiver_id, m.sender_id, u.email, u.preferred_language, w.workshop_name, s.first_name, s.last_name
		    having not exists (select 1 from email_outbox o
		                       where o.dedupe_key like 'chat:' || m.receiver_id || ':' || m.sender_id || ':%'
		                         and o.created_at > ${now}::timestamptz - interval ${sql.raw(`'${CHAT_EMAIL_GAP}'`)})`,
	)
	let sent = 0
	for (const row of rows) {
		const language: Language = isLanguage(row.language) ? row.language : 'et'
		const { subject, content } = chatEmail(language, row)
		const queued = await sendEmail(db, {
			to: row.email,
			language,
			subject,
			content,
			optional: { userId: row.receiverId, kind: 'chat' },
			// Names the newest unread message: a later one may be e-mailed, after the hour.
			dedupeKey: `chat:${row.receiverId}:${row.senderId}:${row.latestId}`,
		})
		if (queued) sent++
	}
	return sent
}

/** The unread-chat e-mail's subject and content: who wrote, how many, the newest, the way to the chat. */
export function chatEmail(language: Language, chat: { senderId: string; senderName: string; unread: number; excerpt: string }) {
	const t = getFixedT(language, 'common')
	const subject = t('notifications.newChatMessage', { name: chat.senderName })
	const content: EmailContent = {
		preview: chat.excerpt,
		heading: subject,
		paragraphs: [t('email.chat.body', { count: chat.unread, name: chat.senderName }), `“${chat.excerpt}”`],
		action: { label: t('email.chat.action'), url: portalLink(`/chat/${encodeId(chat.senderId)}`, language) },
	}
	return { subject, content }
}
