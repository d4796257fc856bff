import { AsyncLocalStorage } from 'node:async_hooks'
import { inArray } from 'drizzle-orm'
import { reviews, users, type EmailAttachment } from '~/db/schema'
import { getSiteData } from '~/domain/site/site.server'
import { fallbackLanguage, isLanguage, type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { type DbOrTx } from '~/db/db.server'
import { enqueueEmail } from '~/email/outbox.server'
import { getEnv } from '~/utils/env.server'
import { encodeId } from '~/utils/public-id'
import { reminderMessages, reminderRequestPath } from '~/domain/service-flow/reminders'
import { wantsNow, type EmailKind, type EmailPreferences } from './email-preferences'
import { type EmailContent, type EmailFrame } from './email-content'
import { renderEmail } from './email-templates.server'
import { notificationMessage, notificationValues } from './notification-text.server'
import { unsubscribeToken } from './email-preferences.server'

/**
 * Sending e-mail, the domain's one way (docs/decisions/0077): rendered from the one template in
 * the recipient's language, put into the outbox inside the caller's transaction (so it goes out
 * exactly when the event happened), at most once per event (`dedupeKey`). An e-mail one may turn
 * off names its kind and its recipient: it carries the preferences link, the unsubscribe link and
 * the List-Unsubscribe headers (RFC 8058).
 */
export type EmailToSend = {
	to: string
	language: Language
	subject: string
	content: EmailContent
	/** For the e-mails one may turn off. */
	optional?: { userId: string; kind: EmailKind }
	dedupeKey?: string
	attachments?: EmailAttachment[]
}

/** The language of a person's e-mails: the one they chose, else the site's. */
export function readerLanguage(stored: string | null | undefined): Language {
	return isLanguage(stored) ? stored : fallbackLanguage
}

/** The portal's address with the reader's language, for links in e-mails. */
export function portalLink(path: string, language: Language) {
	const [page = '', hash] = path.split('#')
	return `${getEnv().APP_URL}${page}${page.includes('?') ? '&' : '?'}lng=${language}${hash ? `#${hash}` : ''}`
}

/** What surrounds an e-mail's content: the site, the language, and for optional ones the way out. */
export async function emailFrame(tx: DbOrTx, language: Language, optional?: EmailToSend['optional']): Promise<EmailFrame> {
	return {
		site: await getSiteData(tx),
		language,
		appUrl: getEnv().APP_URL,
		preferencesUrl: optional ? portalLink('/settings#emails', language) : undefined,
		unsubscribeUrl: optional ? portalLink(`/unsubscribe/${unsubscribeToken(optional.userId, optional.kind)}`, language) : undefined,
	}
}

/** Set while the demo data is written: its people are made up, and its story's moves e-mail nobody. */
const emailsOff = new AsyncLocalStorage<true>()

/**
 * Runs `work` with every e-mail its moves would send left out (neither rendered nor queued), so it
 * needs no session secret for unsubscribe links (decision 0113).
 */
export function withoutEmails<T>(work: () => Promise<T>): Promise<T> {
	return emailsOff.run(true, work)
}

export async function sendEmail(tx: DbOrTx, email: EmailToSend) {
	if (emailsOff.getStore()) return null
	const frame = await emailFrame(tx, email.language, email.optional)
	const { unsubscribeUrl } = frame
	const { html, text } = await renderEmail(frame, email.content)
	return enqueueEmail(tx, {
		to: email.to,
		subject: email.subject,
		text,
		html,
		attachments: email.attachments,
		dedupeKey: email.dedupeKey,
		headers: unsubscribeUrl ? { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : undefined,
	})
}

/** Queues an e-mail for each item; answers how many were new (an event already e-mailed counts nothing). */
export async function sendEach<T>(tx: DbOrTx, items: T[], emailFor: (item: T) => EmailToSend): Promise<number> {
	let queued = 0
	for (const item of items) if (await sendEmail(tx, emailFor(item))) queued++
	return queued
}

// ------------------------------------------------------------------ marketplace events

/** A notification as it was stored: each one is also an e-mail to its recipient, if they want it. */
export type StoredNotification = { id: string; userId: string; messageKey: string; messageParams: Record<string, string | number>; receivedId: string }

type MarketplaceEvent = {
	kind: EmailKind
	/** The page the e-mail's button opens. */
	link: (row: StoredNotification, tx: DbOrTx) => Promise<string> | string
}

const bid = (row: StoredNotification) => `/workshop-bid-details/${encodeId(row.receivedId)}`

/** Which notifications are e-mailed, of which kind, and where their button leads (issue 15). */
const events: Record<string, MarketplaceEvent> = {
	'notifications.newRequest': { kind: 'newRequests', link: (row) => `/customer-request-details/${encodeId(row.receivedId)}` },
	'notifications.newOffer': { kind: 'offers', link: (row) => `/compaire-offers/${encodeId(row.receivedId)}` },
	'notifications.offerSelected': { kind: 'offerOutcomes', link: bid },
	'notifications.offerRejected': { kind: 'offerOutcomes', link: bid },
	'notifications.requestCancelled': { kind: 'offerOutcomes', link: bid },
	'notifications.requestExpired': { kind: 'offerOutcomes', link: bid },
	'notifications.requestExpiredCustomer': { kind: 'offers', link: (row) => `/request-details/${encodeId(row.receivedId)}` },
	'notifications.jobCompleted': { kind: 'jobUpdates', link: (row) => `/leave-feedback/${encodeId(row.receivedId)}` },
	'notifications.extraWorkRequested': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#extra-work` },
	'notifications.extraWorkApproved': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#extra-work` },
	'notifications.extraWorkDeclined': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#extra-work` },
	'notifications.billProposed': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#final-bill` },
	'notifications.billConfirmed': { kind: 'offerOutcomes', link: bid },
	'notifications.billDisputed': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#final-bill` },
	'notifications.billSettled': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#final-bill` },
	'notifications.billSettledWorkshop': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#final-bill` },
	// A booked job's steps, changes and cancelling (issue 33): the customer's on the request, the workshop's on its offer.
	'notifications.bookingCarReceived': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingInWork': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingReady': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingChangeProposed': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingChangeAccepted': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingChangeDeclined': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingChangeWithdrawn': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingCancelled': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingNoShow': { kind: 'jobUpdates', link: (row) => `/work-progress/${encodeId(row.receivedId)}#booking` },
	'notifications.bookingChangeProposedWorkshop': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#booking` },
	'notifications.bookingCancelProposedWorkshop': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#booking` },
	'notifications.bookingChangeAcceptedWorkshop': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#booking` },
	'notifications.bookingChangeDeclinedWorkshop': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#booking` },
	'notifications.bookingChangeWithdrawnWorkshop': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#booking` },
	'notifications.bookingCancelledWorkshop': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#booking` },
	'notifications.bookingNotTakenWorkshop': { kind: 'offerOutcomes', link: (row) => `${bid(row)}#booking` },
	'notifications.newReview': { kind: 'reviews', link: () => '/customer-reviews' },
	'notifications.warrantyEnding': { kind: 'reminders', link: (row) => `/vehicle-details/${encodeId(row.receivedId)}#warranty` },
	// A due reminder opens a request prefilled with the vehicle and the reminder's service.
	...Object.fromEntries(
		Object.entries(reminderMessages).map(([key, kind]) => [key, { kind: 'reminders', link: (row: StoredNotification) => reminderRequestPath(row.receivedId, kind) }]),
	),
	'notifications.reviewReply': {
		kind: 'reviews',
		link: async (row, tx) => {
			const [review] = await tx.select({ workshopId: reviews.workshopId }).from(reviews).where(inArray(reviews.id, [row.receivedId]))
			return review ? `/workshop-details/${encodeId(review.workshopId)}` : '/'
		},
	},
}

/** The e-mailed events, by notification key (the admin's previews list them). */
export const emailedEvents = Object.keys(events)

/** The kind (for preferences and unsubscribing) of an event's e-mail. */
export function emailKindOf(messageKey: string): EmailKind | undefined {
	return events[messageKey]?.kind
}

/**
 * The subject and content of an event's e-mail: the notification's text (naming the car and the
 * request), a line more, the car and the request as facts, one button.
 */
export function eventEmail(language: Language, messageKey: string, params: Record<string, string | number>, url: string) {
	const name = messageKey.slice('notifications.'.length)
	const t = getFixedT(language, 'common')
	const subject = notificationMessage(language, messageKey, params)
	const values = notificationValues(language, params)
	const facts = [
		{ label: t('email.facts.car'), value: values.car ?? values.vehicle },
		{ label: t('email.facts.services'), value: values.services },
		{ label: t('email.facts.amount'), value: values.price },
	].filter((fact): fact is { label: string; value: string | number } => fact.value !== undefined && fact.value !== '')
	const content: EmailContent = {
		preview: subject,
		heading: subject,
		paragraphs: [t(`email.events.${name}.body`, values)],
		facts: facts.map((fact) => ({ label: fact.label, value: String(fact.value) })),
		action: { label: t(`email.events.${name}.action`), url },
	}
	return { subject, content }
}

/** E-mails the notifications just stored to those who want them now (the digest takes the rest). */
export async function emailNotifications(tx: DbOrTx, rows: StoredNotification[]) {
	const relevant = rows.filter((row) => row.messageKey in events)
	if (!relevant.length) return
	const recipients = await tx
		.select({ id: users.id, email: users.email, language: users.preferredLanguage, preferences: users.emailPreferences, blocked: users.blocked })
		.from(users)
		.where(inArray(users.id, [...new Set(relevant.map((row) => row.userId))]))
	for (const row of relevant) {
		const recipient = recipients.find((user) => user.id === row.userId)
		const event = events[row.messageKey]!
		if (!recipient || recipient.blocked || !wantsNow(recipient.preferences as EmailPreferences, event.kind)) continue
		const language = readerLanguage(recipient.language)
		const { subject, content } = eventEmail(language, row.messageKey, row.messageParams, portalLink(await event.link(row, tx), language))
		await sendEmail(tx, { to: recipient.email, language, subject, content, optional: { userId: recipient.id, kind: event.kind }, dedupeKey: `notification:${row.id}` })
	}
}
