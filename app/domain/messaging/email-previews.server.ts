import { randomUUID } from 'node:crypto'
import { fallbackLanguage, type Language, type Namespace } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { db } from '~/db/db.server'
import { formatDateTime } from '~/utils/format'
import { formatMoney } from '~/utils/money'
import { type EmailKind } from './email-preferences'
import { chatEmail, digestEmail, nudgeEmail, reminderEmail } from './email-jobs.server'
import { type EmailContent } from './email-content'
import { letter, renderEmail } from './email-templates.server'
import { emailedEvents, emailFrame, emailKindOf, eventEmail, portalLink } from './emails.server'

/**
 * `/admin/emails`: every e-mail the portal sends, rendered from the real templates and texts with
 * made-up data, in each language, so that a change of wording or of the template can be looked at
 * before anyone receives it. Nothing is queued or sent.
 */
export type EmailPreview = { id: string; group: 'events' | 'scheduled' | 'account'; optional: boolean }

type Built = { subject: string; content: EmailContent; kind?: EmailKind }

const sampleRequest = () => randomUUID()
/** What every notice about a request names (requestNoticeParams): its car and its services. */
const about = { car: 'Toyota Corolla (123ABC)', services_et: 'Õlivahetus', services_en: 'Oil change', services_ru: 'Замена масла' }
const services = { services_et: about.services_et, services_en: about.services_en, services_ru: about.services_ru }
const eventParams: Record<string, Record<string, string | number>> = {
	'notifications.newRequest': { vehicle: 'Toyota Yaris', city: 'Tallinn', ...services },
	'notifications.newOffer': { workshop: 'Kask Autoteenindus', priceCents: 18_550, ...about },
	'notifications.offerSelected': { customer: 'Mari Maasikas', priceCents: 18_550, ...about },
	'notifications.offerRejected': { ...about },
	'notifications.requestCancelled': { ...about },
	'notifications.requestExpired': { ...about },
	'notifications.requestExpiredCustomer': { days: 14, ...about },
	'notifications.jobCompleted': { workshop: 'Kask Autoteenindus', priceCents: 19_900, ...about },
	'notifications.extraWorkRequested': { workshop: 'Kask Autoteenindus', priceCents: 12_400, ...about },
	'notifications.extraWorkApproved': { customer: 'Mari Maasikas', priceCents: 12_400, ...about },
	'notifications.extraWorkDeclined': { customer: 'Mari Maasikas', priceCents: 12_400, ...about },
	'notifications.billProposed': { workshop: 'Kask Autoteenindus', priceCents: 24_500, bindingCents: 20_500, ...about },
	'notifications.billConfirmed': { customer: 'Mari Maasikas', priceCents: 24_500, ...about },
	'notifications.billDisputed': { customer: 'Mari Maasikas', priceCents: 24_500, ...about },
	'notifications.billSettled': { workshop: 'Kask Autoteenindus', priceCents: 20_500, ...about },
	'notifications.billSettledWorkshop': { customer: 'Mari Maasikas', priceCents: 20_500, ...about },
	'notifications.warrantyEnding': { workshop: 'Kask Autoteenindus', vehicle: 'Toyota Corolla (123ABC)', untilDay: '2026-12-20' },
	'notifications.reminderInspection': { vehicle: 'Toyota Corolla (123ABC)', dueDay: '2026-12-20' },
	'notifications.reminderWinterTyres': { vehicle: 'Toyota Corolla (123ABC)', dueDay: '2026-10-01' },
	'notifications.reminderSummerTyres': { vehicle: 'Toyota Corolla (123ABC)', dueDay: '2027-03-15' },
	'notifications.reminderService': { vehicle: 'Toyota Corolla (123ABC)', dueDay: '2026-12-20', reading: 45_000 },
	'notifications.newReview': { customer: 'Mari Maasikas', rating: 5, ...about },
	'notifications.reviewReply': { workshop: 'Kask Autoteenindus', ...about },
	'notifications.bookingCarReceived': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingInWork': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingReady': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingChangeProposed': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingChangeAccepted': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingChangeDeclined': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingChangeWithdrawn': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingCancelled': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingNoShow': { workshop: 'Kask Autoteenindus', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingChangeProposedWorkshop': { customer: 'Mari Maasikas', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingCancelProposedWorkshop': { customer: 'Mari Maasikas', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingChangeAcceptedWorkshop': { customer: 'Mari Maasikas', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingChangeDeclinedWorkshop': { customer: 'Mari Maasikas', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingChangeWithdrawnWorkshop': { customer: 'Mari Maasikas', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingCancelledWorkshop': { customer: 'Mari Maasikas', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
	'notifications.bookingNotTakenWorkshop': { customer: 'Mari Maasikas', startsAt: '2026-12-03T08:00:00.000Z', proposedAt: '2026-12-04T11:30:00.000Z', ...about },
}
type Build = (language: Language) => Built

const eventBuilders: Record<string, Build> = Object.fromEntries(
	emailedEvents.map((key) => [
		key.slice('notifications.'.length),
		(language: Language) => ({ ...eventEmail(language, key, eventParams[key] ?? {}, portalLink('/dashboard', language)), kind: emailKindOf(key) }),
	]),
)

/** The e-mails the background jobs send. */
const scheduledBuilders: Record<string, Build> = {
	digest: (language) => ({
		...digestEmail(
			language,
			[
				{ requestId: sampleRequest(), params: { vehicle: 'Toyota Yaris', city: 'Tallinn' } },
				{ requestId: sampleRequest(), params: { vehicle: 'Audi A4', city: 'Tartu' } },
			],
			[{ requestId: sampleRequest(), params: { vehicle: 'Škoda Octavia', city: 'Tallinn' } }],
		),
		kind: 'newRequests',
	}),
	chat: (language) => ({ ...chatEmail(language, { senderId: randomUUID(), senderName: 'Kask Autoteenindus', unread: 2, excerpt: 'Tere! Kas reede kell 10 sobib?' }), kind: 'chat' }),
	reminder: (language) => ({ ...reminderEmail(language, { requestId: sampleRequest(), params: { vehicle: 'Toyota Yaris', city: 'Tallinn' } }), kind: 'newRequests' }),
	nudge: (language) => ({
		...nudgeEmail(language, sampleRequest(), [
			{ id: randomUUID(), name: 'Kask Autoteenindus' },
			{ id: randomUUID(), name: 'Tallinna Rehvikeskus' },
		], { car: about.car, services: about[`services_${language}`] }),
		kind: 'offers',
	}),
}

/** Account, billing and contact e-mails: always sent, never optional. */
const accountBuilders: Record<string, Build> = {
	welcome: (language) => text(language, 'auth', 'email.welcome', { name: 'Mari', url: portalLink('/login', language) }),
	reset: (language) => text(language, 'auth', 'email.reset', { name: 'Mari', url: portalLink('/reset-password/…', language), minutes: 60 }),
	// An administrator's one-time link to add a second factor (decision 0156).
	enrolmentLink: (language) => text(language, 'auth', 'stepUp.email', { name: 'Mari', url: portalLink('/admin/verify?link=…', language), minutes: 30, settings: portalLink('/settings', language) }),
	invoice: (language) =>
		text(language, 'billing', 'email.invoice', {
			company: 'Kask Autoteenindus OÜ',
			number: 'AH-2026-0001',
			package: 'Pro',
			total: formatMoney(3_720, language),
			url: portalLink('/subscription', language),
		}),
	subscriptionEnded: (language) => text(language, 'billing', 'email.ended', { company: 'Kask Autoteenindus OÜ', url: portalLink('/subscription', language) }),
	paymentFailed: (language) => text(language, 'billing', 'email.paymentFailed', { company: 'Kask Autoteenindus OÜ', url: portalLink('/subscription', language) }),
	dataExportReady: (language) => {
		const built = text(language, 'account', 'export.email', { name: 'Mari', days: 7 })
		const action = { label: getFixedT(language, 'account')('export.email.action'), url: portalLink('/settings/export/…', language) }
		return { ...built, content: { ...built.content, action } }
	},
	accountDeleted: (language) => text(language, 'account', 'deletion.email', { name: 'Mari' }),
	contact: (language) => {
		const t = getFixedT(language, 'public')
		const subject = t('contact.mail.subject', { name: 'Olga Ivanova', site: 'Autohub' })
		const body = t('contact.mail.text', {
			name: 'Olga Ivanova',
			email: 'olga@example.com',
			language: t('common:language.ru'),
			date: formatDateTime(new Date(), language),
			message: 'Здравствуйте!\nЕсть вопрос.',
		})
		return { subject, content: letter(subject, body) }
	},
}

function text(language: Language, namespace: Namespace, key: string, params: Record<string, string | number>): Built {
	const t = getFixedT(language, namespace)
	const subject = t(`${key}.subject`, params)
	return { subject, content: letter(subject, t(`${key}.text`, params)) }
}

const groups: Record<EmailPreview['group'], Record<string, Build>> = { events: eventBuilders, scheduled: scheduledBuilders, account: accountBuilders }
const builders: Record<string, Build> = { ...eventBuilders, ...scheduledBuilders, ...accountBuilders }

/** Every e-mail there is a preview of, in the order the page lists them; optional ones name their kind. */
export const emailPreviews: EmailPreview[] = Object.entries(groups).flatMap(([group, list]) =>
	Object.entries(list).map(([id, build]) => ({ id, group: group as EmailPreview['group'], optional: Boolean(build(fallbackLanguage).kind) })),
)

export function isEmailPreview(id: string | undefined): id is string {
	return typeof id === 'string' && Object.hasOwn(builders, id)
}

/** One e-mail, rendered as it would go out (the unsubscribe link names nobody real). */
export async function renderEmailPreview(id: string, language: Language) {
	const built = builders[id]!(language)
	const frame = await emailFrame(db, language, built.kind ? { userId: randomUUID(), kind: built.kind } : undefined)
	const { html, text: plain } = await renderEmail(frame, built.content)
	return { subject: built.subject, html, text: plain }
}
