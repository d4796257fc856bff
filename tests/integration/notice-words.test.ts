import { parseWithZod } from '@conform-to/zod/v4'
import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { emailOutbox, notifications, services, users, vehicles } from '~/db/schema'
import { emailPreviews, renderEmailPreview } from '~/domain/messaging/email-previews.server'
import { listNotifications } from '~/domain/messaging/notifications.server'
import { notificationMessage } from '~/domain/messaging/notification-text.server'
import { answerExtraWork, askForExtraWork } from '~/domain/service-flow/extra-work-moves.server'
import { ExtraWorkSchema, type ExtraWorkInput } from '~/domain/service-flow/extra-work-schema'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { languageCookie } from '~/i18n/i18n.server'
import { loader as rootLoader } from '~/root'
import { action as unsubscribeAction, loader as unsubscribeLoader } from '~/routes/_public.unsubscribe.$token'
import { db } from '~/db/db.server'
import { dictionaryText } from '#tests/support/dictionary'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'
import { demoData } from '#tests/support/demo-data'

/**
 * Issue 32, item 8: every notice and e-mail about a request names its car (make, model, plate) and
 * the request (its services), in the reader's language, with its amount where there is one; an
 * Estonian date stands where its nominative is grammatical; an e-mail's unsubscribe link opens in
 * the recipient's language whatever the visitor's own language cookie says.
 */
type Language = 'et' | 'en' | 'ru'
const languages: Language[] = ['et', 'en', 'ru']

const speaks = (userId: string, language: Language) => db.update(users).set({ preferredLanguage: language }).where(eq(users.id, userId))
const emailOf = async (userId: string) => (await db.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email
/** The newest marketplace e-mail queued for `to` (the welcome e-mail has no dedupe key). */
async function lastEmailTo(to: string) {
	const [mail] = await db
		.select()
		.from(emailOutbox)
		.where(and(eq(emailOutbox.to, to), isNotNull(emailOutbox.dedupeKey)))
		.orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
		.limit(1)
	return mail!
}

/** Extra work of one labour line: an hour at €40. */
function extraWorkInput(): ExtraWorkInput {
	const form = new FormData()
	const fields = { reason: 'The pads are worn.', 'lines[0].kind': 'labour', 'lines[0].description': 'Replace the pads', 'lines[0].quantity': '1', 'lines[0].unitPrice': '40' }
	for (const [name, value] of Object.entries(fields)) form.set(name, value)
	const submission = parseWithZod(form, { schema: ExtraWorkSchema })
	if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
	return submission.value
}

const serviceName = async (id: string, language: Language) => {
	const [row] = await db.select().from(services).where(eq(services.id, id))
	return { et: row!.nameEt, en: row!.nameEn, ru: row!.nameRu }[language]
}

describe('every notice names the car and the request', () => {
	test('in the demo data too: each notice about a request or its offers names its car and services', async () => {
		await demoData()
		const kinds = ['notifications.newOffer', 'notifications.offerSelected', 'notifications.offerRejected', 'notifications.jobCompleted', 'notifications.requestCancelled']
		const rows = await db.select().from(notifications).where(inArray(notifications.messageKey, kinds))
		expect(rows.length).toBeGreaterThan(5)
		for (const row of rows) expect(row.messageParams, row.messageKey).toMatchObject({ car: expect.stringMatching(/^\S.* \(\w+\)$/), services_et: expect.any(String) })
	})

	for (const language of languages) {
		test(`the offer, the selection and the job, in ${language}`, { timeout: 90_000 }, async () => {
			const { customer, vehicleId, refs } = await customerWithVehicle()
			const [vehicle] = await db.select().from(vehicles).where(eq(vehicles.id, vehicleId))
			const car = `Toyota Corolla (${vehicle!.registrationNumber})`
			const brakes = await serviceName(refs.brakes, language)
			const garage = await workshopOffering([refs.brakes])
			await Promise.all([speaks(customer.id, language), speaks(garage.userId, language)])
			const garageEmail = await emailOf(garage.userId)
			const price = { et: /224,80\s€/, en: /€224\.80/, ru: /224,80\s€/ }[language]

			const requestId = await openRequest(customer.id, vehicleId, [refs.brakes])
			// The workshop's new request names the vehicle, the city and the service.
			const asked = await lastEmailTo(garageEmail)
			expect(asked.subject).toContain('Toyota Corolla')
			expect(asked.subject).toContain(brakes)

			// The offer: the customer's bell and e-mail say who, for which car and request, how much.
			const offerId = await makeOffer(garage, requestId, { price: 22_480 }, null)
			const offerMail = await lastEmailTo(customer.email)
			for (const text of [offerMail.subject, offerMail.text]) {
				expect(text).toContain(garage.workshopName)
				expect(text).toContain(car)
				expect(text).toContain(brakes)
				expect(text).toMatch(price)
			}
			expect(offerMail.text).toContain(dictionaryText(language, 'common', 'email.facts.car'))
			const bell = await listNotifications(customer.id, language, db)
			expect(bell.notifications[0]!.message).toContain(car)
			expect(bell.notifications[0]!.message).toContain(brakes)
			expect(bell.notifications[0]!.message).toMatch(price)

			// The selection: the workshop learns which car and request it won, and for how much.
			await selectOffer(customer.id, requestId, offerId)
			const selected = await lastEmailTo(garageEmail)
			expect(selected.subject).toContain(car)
			expect(selected.subject).toContain(brakes)
			expect(selected.text).toMatch(price)
			expect((await listNotifications(garage.userId, language, db)).notifications[0]!.message).toContain(car)

			// Extra work during the job, then the job done: each names the car and the request.
			const extraId = await askForExtraWork(garage, offerId, extraWorkInput(), [])
			const extra = await lastEmailTo(customer.email)
			expect(extra.subject).toContain(car)
			expect(extra.subject).toContain(brakes)
			await answerExtraWork(customer.id, requestId, extraId, 'approve')
			const approved = await lastEmailTo(garageEmail)
			expect(approved.subject).toContain(car)
			expect(approved.subject).toContain(brakes)
			await completeJob(garage, offerId, 22_480)
			const done = await lastEmailTo(customer.email)
			expect(done.subject).toContain(car)
			expect(done.subject).toContain(brakes)
			expect(done.text).toMatch(price)
		})
	}
})

/** An Estonian long date ("1. oktoober 2026") after a word that wants another case: "lõpeb 1. oktoober". */
const MONTHS = 'jaanuar|veebruar|märts|aprill|mai|juuni|juuli|august|september|oktoober|november|detsember'
const NOMINATIVE_DATE = new RegExp(`(\\S+)\\s+\\d{1,2}\\.\\s+(${MONTHS})(?![\\p{L}])`, 'giu')
function ungrammaticalEstonianDates(text: string): string[] {
	return [...text.matchAll(NOMINATIVE_DATE)].filter((match) => !/[:(,–—]$/.test(match[1]!)).map((match) => match[0])
}

describe('dates in Estonian notices and e-mails', () => {
	test('the check knows a wrong case from a right one', () => {
		expect(ungrammaticalEstonianDates('Garantii lõpeb 20. detsember 2026')).toEqual(['lõpeb 20. detsember'])
		expect(ungrammaticalEstonianDates('Kehtib kuni 1. oktoober 2026.')).toEqual(['kuni 1. oktoober'])
		expect(ungrammaticalEstonianDates('Viimane päev: 20. detsember 2026')).toEqual([])
	})

	test('a warranty or reminder notice puts its date where the nominative is right', () => {
		const texts = [
			notificationMessage('et', 'notifications.warrantyEnding', { workshop: 'Kask Autoteenindus', vehicle: 'Toyota Corolla (123ABC)', untilDay: '2026-10-01' }),
			notificationMessage('et', 'notifications.reminderInspection', { vehicle: 'Toyota Corolla (123ABC)', dueDay: '2026-10-01' }),
			notificationMessage('et', 'notifications.reminderService', { vehicle: 'Toyota Corolla (123ABC)', dueDay: '2026-10-01', miles: 45_000 }),
		]
		for (const text of texts) {
			expect(text).toContain('1. oktoober 2026')
			expect(ungrammaticalEstonianDates(text)).toEqual([])
		}
	})

	test('every e-mail the portal sends, rendered in Estonian, has its dates in a grammatical place', { timeout: 60_000 }, async () => {
		for (const preview of emailPreviews) {
			const { subject, text } = await renderEmailPreview(preview.id, 'et')
			expect(ungrammaticalEstonianDates(`${subject}\n${text}`), preview.id).toEqual([])
		}
	})
})

describe('the unsubscribe link', () => {
	test('opens in the recipient’s language, whatever the visitor’s cookie and browser say', { timeout: 60_000 }, async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		await speaks(customer.id, 'ru')
		const garage = await workshopOffering([refs.brakes])
		await makeOffer(garage, await openRequest(customer.id, vehicleId, [refs.brakes]), { price: 10_000 }, null)
		const mail = await lastEmailTo(customer.email)
		const link = mail.text.match(/https?:\/\/\S*\/unsubscribe\/\S+/)?.[0]
		expect(link).toMatch(/\?lng=ru$/)
		expect(mail.headers['List-Unsubscribe']).toBe(`<${link}>`)

		// A visitor whose own language is English (cookie and browser) opens it.
		const headers = { Cookie: await languageCookie.serialize('en'), 'Accept-Language': 'en-GB,en;q=0.9' }
		const token = new URL(link!).pathname.split('/').pop()!
		const args = (method = 'GET') => ({ request: new Request(link!, { method, headers, ...(method === 'POST' ? { body: new FormData() } : {}) }), params: { token }, context: {} }) as never
		const root = (await rootLoader(args())) as unknown as { data: { language: string } }
		expect(root.data.language).toBe('ru')
		const page = (await unsubscribeLoader(args())) as unknown as { data: { state: string; meta: { title: string } } }
		expect(page.data).toMatchObject({ state: 'ask', meta: { title: dictionaryText('ru', 'common', 'unsubscribe.title') } })
		// The form posts back to the same address, ?lng= kept (the browser's part: tests/e2e/emails.spec.ts).
		const done = (await unsubscribeAction(args('POST'))) as unknown as { data: { state: string } }
		expect(done.data.state).toBe('done')
	})
})
