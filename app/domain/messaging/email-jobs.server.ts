import { sql } from 'drizzle-orm'
import { listedWorkshop, requestMatchesWorkshop, serviceNames, valueList, vehicleLabel } from '~/db/sql'
import { statusLists } from '~/domain/service-flow/status'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { db, queryRows } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { dateToTallinnInput } from '~/utils/time'
import { notificationMessage } from './notification-text.server'
import { portalLink, readerLanguage, sendEach } from './emails.server'
import { type EmailContent } from './email-content'

/**
 * The e-mails that wait for time to pass (issue 15), run by the background jobs every few
 * minutes and idempotent: each names its e-mail by a dedupe key, so a second run, or a second
 * process, sends nothing twice. `now` is a parameter so that tests can move the clock.
 */

/** The morning digest goes out from this hour on, in the site's time zone. */
export const DIGEST_HOUR = 7

/**
 * Workshops that chose the daily digest get, once a day from 07:00 Tallinn time, one e-mail
 * listing the matching requests of the last 24 hours that are still open, and, as their reminder
 * (the at-once readers get theirs apart), the day before's that they have not answered yet and
 * that are still open. None when both lists are empty.
 */
export async function sendNewRequestDigests(now = new Date()): Promise<number> {
	const local = dateToTallinnInput(now)
	if (Number(local.slice(11, 13)) < DIGEST_HOUR) return 0
	const day = local.slice(0, 10)
	const rows = await queryRows<DigestRow & { userId: string; email: string; language: string | null; waiting: boolean }>(
		db,
		sql`select u.id as "userId", u.email, u.preferred_language as language, n.received_id as "requestId", n.message_params as params,
		           n.created_at <= ${now}::timestamptz - interval '24 hours' as waiting
		    from notifications n
		    join users u on u.id = n.user_id
		    join workshops w on w.user_id = u.id
		    join service_requests r on r.id = n.received_id
		    where n.message_key = 'notifications.newRequest'
		      and n.created_at > ${now}::timestamptz - interval '48 hours' and n.created_at <= ${now}::timestamptz
		      and (n.created_at > ${now}::timestamptz - interval '24 hours'
		           or not exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = w.id))
		      and u.email_preferences ->> 'newRequests' = 'digest' and not u.blocked
		      and r.status in ${valueList(statusLists.openRequests)}
		      and not exists (select 1 from email_outbox o where o.dedupe_key = 'digest:' || u.id || ':' || ${day})
		    order by u.id, n.created_at`,
	)
	const byUser = new Map<string, typeof rows>()
	for (const row of rows) {
		const list = byUser.get(row.userId) ?? []
		list.push(row)
		byUser.set(row.userId, list)
	}
	return sendEach(db, [...byUser.values()], (requests) => {
		const { userId, email } = requests[0]!
		const language = readerLanguage(requests[0]!.language)
		const fresh = requests.filter((request) => !request.waiting)
		const waiting = requests.filter((request) => request.waiting)
		return { to: email, language, ...digestEmail(language, fresh, waiting), optional: { userId, kind: 'newRequests' }, dedupeKey: `digest:${userId}:${day}` }
	})
}

type DigestRow = { requestId: string; params: Record<string, string | number> }

/** The digest's subject and content: a link per new request, then the unanswered ones, and one to all open requests. */
export function digestEmail(language: Language, fresh: DigestRow[], waiting: DigestRow[] = []) {
	const t = getFixedT(language, 'common')
	const link = (request: DigestRow) => ({
		text: notificationMessage(language, 'notifications.newRequest', request.params),
		url: portalLink(`/customer-request-details/${encodeId(request.requestId)}`, language),
	})
	const subject = fresh.length ? t('email.digest.subject', { count: fresh.length }) : t('email.digest.subjectWaiting')
	const content: EmailContent = {
		preview: subject,
		heading: subject,
		paragraphs: fresh.length ? [t('email.digest.body')] : [],
		items: fresh.map(link),
		more: waiting.length ? { lead: t('email.digest.waiting'), items: waiting.map(link) } : undefined,
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
	return sendEach(db, rows, (row) => {
		const language = readerLanguage(row.language)
		return {
			to: row.email,
			language,
			...chatEmail(language, row),
			optional: { userId: row.receiverId, kind: 'chat' },
			// Names the newest unread message: a later one may be e-mailed, after the hour.
			dedupeKey: `chat:${row.receiverId}:${row.senderId}:${row.latestId}`,
		}
	})
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

// ------------------------------------------------------------------ answers that are late

/**
 * A workshop that was told of a request (at once) and has not answered it a day later gets one
 * reminder, while the request is still open. Digest readers have theirs in the next digest;
 * "off" readers are not reminded by e-mail.
 */
export async function sendAnswerReminders(now = new Date()): Promise<number> {
	const rows = await queryRows<{ userId: string; email: string; language: string | null; requestId: string; params: Record<string, string | number> }>(
		db,
		sql`select u.id as "userId", u.email, u.preferred_language as language, r.id as "requestId", n.message_params as params
		    from notifications n
		    join users u on u.id = n.user_id
		    join workshops w on w.user_id = u.id
		    join service_requests r on r.id = n.received_id
		    where n.message_key = 'notifications.newRequest'
		      and n.created_at <= ${now}::timestamptz - interval '24 hours' and n.created_at > ${now}::timestamptz - interval '48 hours'
		      and r.status in ${valueList(statusLists.openRequests)}
		      and not u.blocked and coalesce(u.email_preferences ->> 'newRequests', 'instant') = 'instant'
		      and not exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = w.id)
		      and not exists (select 1 from email_outbox e where e.dedupe_key = 'reminder:' || u.id || ':' || r.id)`,
	)
	return sendEach(db, rows, (row) => {
		const language = readerLanguage(row.language)
		return { to: row.email, language, ...reminderEmail(language, row), optional: { userId: row.userId, kind: 'newRequests' }, dedupeKey: `reminder:${row.userId}:${row.requestId}` }
	})
}

export function reminderEmail(language: Language, request: { requestId: string; params: Record<string, string | number> }) {
	const t = getFixedT(language, 'common')
	const what = notificationMessage(language, 'notifications.newRequest', request.params)
	const subject = t('email.reminder.subject')
	const content: EmailContent = {
		preview: what,
		heading: subject,
		paragraphs: [t('email.reminder.body'), what],
		action: { label: t('email.reminder.action'), url: portalLink(`/customer-request-details/${encodeId(request.requestId)}`, language) },
	}
	return { subject, content }
}

/** How many matching workshops the "no offers yet" e-mail names. */
const NUDGE_WORKSHOPS = 5

/**
 * A request with no offer two days after it was made: its customer is told, once, and given the
 * workshops that do its services (in its city when it names one) to look at.
 */
export async function sendNoOfferNudges(now = new Date()): Promise<number> {
	// The requests and, for each, its best listed workshops, in one query.
	const requests = await queryRows<{
		requestId: string
		customerId: string
		email: string
		language: string | null
		workshops: Array<{ id: string; name: string }> | string
		car: string
		services: Record<Language, string[]>
	}>(
		db,
		sql`select r.id as "requestId", u.id as "customerId", u.email, u.preferred_language as language,
		           ${vehicleLabel('registration')} as car,
		           json_build_object('et', ${serviceNames('et')}, 'en', ${serviceNames('en')}, 'ru', ${serviceNames('ru')}) as services,
		           coalesce((select json_agg(json_build_object('id', m.id, 'name', m.name))
		                     from (select w.id, w.workshop_name as name
		                           from workshops w
		                           where ${listedWorkshop}
		                             and ${requestMatchesWorkshop()}
		                           -- Best rated first; payment plays no part (decision 0128).
		                           order by w.rating_average desc, w.review_count desc, w.id
		                           limit ${NUDGE_WORKSHOPS}) m), '[]') as workshops
		    from service_requests r
		    join users u on u.id = r.customer_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    where r.created_at <= ${now}::timestamptz - interval '48 hours' and r.created_at > ${now}::timestamptz - interval '7 days'
		      and r.status in ${valueList(statusLists.openRequests)}
		      and not exists (select 1 from offers o where o.request_id = r.id)
		      and not u.blocked and coalesce(u.email_preferences ->> 'offers', 'on') <> 'off'
		      and not exists (select 1 from email_outbox e where e.dedupe_key = 'nudge:' || r.id)`,
	)
	return sendEach(db, requests, (request) => {
		const language = readerLanguage(request.language)
		// json arrives parsed from node-postgres and as text from PGlite.
		const workshops = typeof request.workshops === 'string' ? (JSON.parse(request.workshops) as Array<{ id: string; name: string }>) : request.workshops
		const services = typeof request.services === 'string' ? (JSON.parse(request.services) as Record<Language, string[]>) : request.services
		return {
			to: request.email,
			language,
			...nudgeEmail(language, request.requestId, workshops, { car: request.car, services: services[language].join(', ') }),
			optional: { userId: request.customerId, kind: 'offers' },
			dedupeKey: `nudge:${request.requestId}`,
		}
	})
}

/** The "no offers yet" e-mail, naming the request's car and services (issue 32). */
export function nudgeEmail(language: Language, requestId: string, workshops: Array<{ id: string; name: string }>, about: { car: string; services: string }) {
	const t = getFixedT(language, 'common')
	const subject = t('notifications.about', { message: t('email.nudge.subject'), about: [about.car, about.services].filter(Boolean).join(', ') })
	const content: EmailContent = {
		preview: subject,
		heading: subject,
		paragraphs: [t(workshops.length ? 'email.nudge.body' : 'email.nudge.bodyNone')],
		facts: [
			{ label: t('email.facts.car'), value: about.car },
			{ label: t('email.facts.services'), value: about.services },
		].filter((fact) => fact.value),
		items: workshops.map((workshop) => ({ text: workshop.name, url: portalLink(`/workshop-details/${encodeId(workshop.id)}`, language) })),
		action: { label: t('email.nudge.action'), url: portalLink(`/request-details/${encodeId(requestId)}#widen`, language) },
	}
	return { subject, content }
}
