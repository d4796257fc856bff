import Stripe from 'stripe'
import { and, count, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { emailOutbox, invoices, notifications, offers, packages, payments, subscriptions, uploads, users, workshops } from '~/db/schema'
import { DomainError, FieldError } from '~/utils/errors'
import { type PaymentProvider } from '~/domain/billing/payments.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { renewDueSubscriptions } from '~/domain/billing/renewals.server'
import { loadSubscriptionPage, unlimitedPackageName } from '~/domain/billing/subscription-page.server'
import { activatePayment, addMonth, cancelSubscription, cancelTestPayment, payTestPayment, saveBillingDetails, subscribe } from '~/domain/billing/subscription.server'
import { getFixedT } from '~/i18n/i18n.server'
import { db } from '~/db/db.server'
import { resetEnvCache } from '~/utils/env.server'
import { decodeId } from '~/utils/public-id'
import { readStoredFile } from '~/uploads/storage.server'
import { customerWithVehicle, openRequest, referenceData, workshopOffering } from '#tests/support/flow'
import { pdfText } from '#tests/support/pdf-text'

const WEBHOOK_SECRET = 'whsec_test_autohub_subscription'
const offer = (euros: number) => ({ price: euros * 100, notes: '', description: 'Work as described' })
const DAY = 24 * 60 * 60 * 1000

let pro: typeof packages.$inferSelect
let free: typeof packages.$inferSelect

beforeAll(async () => {
	await referenceData()
	pro = (await db.select().from(packages).where(eq(packages.code, 'pro')))[0]!
	free = (await db.select().from(packages).where(eq(packages.code, 'free')))[0]!
})

async function workshopWithBilling(serviceIds?: string[]) {
	const workshop = await workshopOffering(serviceIds ?? [(await referenceData()).tyres])
	await saveBillingDetails(workshop.workshopId, { billingEmail: `billing-${workshop.workshopId.slice(0, 8)}@example.com`, vatNumber: null, wantsEInvoice: false })
	return workshop
}

const activeOf = async (workshopId: string) =>
	(await db.select().from(subscriptions).where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active'))))[0]!
const rankOf = async (workshopId: string) => (await db.select().from(workshops).where(eq(workshops.id, workshopId)))[0]!.packageRank
const invoicesOf = (workshopId: string) => db.select().from(invoices).where(eq(invoices.workshopId, workshopId))

/** Subscribes to the paid package through the test provider and pays. */
async function goPro(workshop: WorkshopActor) {
	const outcome = await subscribe(workshop.workshopId, pro.id)
	if (outcome.kind !== 'checkout') throw new Error(`expected a checkout, got ${outcome.kind}`)
	const paymentId = decodeId(outcome.url.split('/').pop())!
	const result = await payTestPayment(workshop.workshopId, paymentId)
	expect(result.outcome).toBe('activated')
	return paymentId
}

describe('subscribing', () => {
	test('needs a billing e-mail first', async () => {
		const workshop = await workshopOffering([(await referenceData()).tyres])
		const error = await subscribe(workshop.workshopId, free.id).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(DomainError)
		expect((error as DomainError).key).toBe('billing:errors.billingEmailRequired')
		expect(getFixedT('en', 'billing')('errors.billingEmailRequired')).toBe('Please provide billing email to continue!')
		expect((await subscribe(workshop.workshopId, pro.id).catch((e: unknown) => e)) as DomainError).toMatchObject({ key: 'billing:errors.billingEmailRequired' })
		// A refusal about the billing e-mail field: the page shows it next to that field.
		expect(error).toBeInstanceOf(FieldError)
		expect((error as FieldError).field).toBe('billingEmail')
	})

	test('the paid package has one name, the packages table one, on the page and in "More with …"', async () => {
		const workshop = await workshopWithBilling()
		for (const language of ['et', 'en', 'ru'] as const) {
			const page = await loadSubscriptionPage(workshop.workshopId, language)
			const paid = page.packages.find((pkg) => pkg.offersPerMonth === null)!
			expect(await unlimitedPackageName(language)).toBe(paid.name)
		}
		// Renamed by an administrator: the new name everywhere, in that language only.
		await db.update(packages).set({ nameEn: 'Garage Plus' }).where(eq(packages.id, pro.id))
		try {
			expect(await unlimitedPackageName('en')).toBe('Garage Plus')
			expect((await loadSubscriptionPage(workshop.workshopId, 'en')).packages.map((pkg) => pkg.name)).toContain('Garage Plus')
			expect(await unlimitedPackageName('et')).toBe(pro.nameEt)
		} finally {
			await db.update(packages).set({ nameEn: pro.nameEn }).where(eq(packages.id, pro.id))
		}
	})

	test('the free package is subscribed at once', async () => {
		const workshop = await workshopWithBilling()
		expect(await subscribe(workshop.workshopId, free.id)).toEqual({ kind: 'free' })
		expect((await activeOf(workshop.workshopId)).packageId).toBe(free.id)
	})

	test('a paid package is active only after payment; then an invoice PDF is stored and e-mailed with it', async () => {
		const workshop = await workshopWithBilling()
		const outcome = await subscribe(workshop.workshopId, pro.id)
		expect(outcome.kind).toBe('checkout')
		// Not yet paid: still on the free package.
		expect((await activeOf(workshop.workshopId)).packageId).toBe(free.id)
		const paymentId = decodeId((outcome as { url: string }).url.split('/').pop())!
		await payTestPayment(workshop.workshopId, paymentId)

		const active = await activeOf(workshop.workshopId)
		expect(active.packageId).toBe(pro.id)
		expect(active.periodEnd!.getTime() - active.periodStart!.getTime()).toBeGreaterThanOrEqual(28 * DAY)
		expect(await rankOf(workshop.workshopId)).toBe(1)

		const [invoice] = await invoicesOf(workshop.workshopId)
		expect(invoice).toMatchObject({ netCents: 2900, vatRateBasisPoints: 2400, vatCents: 696, totalCents: 3596, currency: 'EUR' })
		expect(invoice!.buyer).toMatchObject({ name: 'Test Garaaž OÜ', companyId: '1234567890', email: expect.stringMatching(/^billing-/) })
		expect(invoice!.seller.name).toBe('Autohub OÜ')
		const [pdf] = await db.select().from(uploads).where(eq(uploads.id, invoice!.pdfUploadId!))
		expect(pdf!.mimeType).toBe('application/pdf')
		expect((await readStoredFile(pdf!.storageKey)).subarray(0, 5).toString()).toBe('%PDF-')

		const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, invoice!.buyer.email))
		expect(mail!.subject).toContain(String(invoice!.number))
		expect(mail!.attachments).toEqual([{ uploadId: pdf!.id, filename: `invoice-${invoice!.number}.pdf` }])
	})

	test("the invoice prints every letter, in the buyer's language beside Estonian", async () => {
		const workshop = await workshopWithBilling()
		await db.update(workshops).set({ companyName: 'ООО Шиномонтаж Õunapuu', streetName: 'Пярнуское шоссе 12' }).where(eq(workshops.id, workshop.workshopId))
		await db.update(users).set({ preferredLanguage: 'ru' }).where(eq(users.id, workshop.userId))
		await goPro(workshop)
		const [invoice] = await invoicesOf(workshop.workshopId)
		const [pdf] = await db.select().from(uploads).where(eq(uploads.id, invoice!.pdfUploadId!))
		const text = await pdfText(await readStoredFile(pdf!.storageKey))
		expect(text).toContain('ООО Шиномонтаж Õunapuu')
		expect(text).toContain('Пярнуское шоссе 12')
		expect(text).toContain('ARVE / СЧЁТ')
		expect(text).toContain('Ostja / Покупатель')
		expect(text).toContain('Kokku / Итого')
		expect(text).toContain('35,96')
		expect(text).not.toContain('?')

		// An Estonian reader's: Estonian alone.
		const local = await workshopWithBilling()
		await db.update(users).set({ preferredLanguage: 'et' }).where(eq(users.id, local.userId))
		await goPro(local)
		const [own] = await invoicesOf(local.workshopId)
		const [ownPdf] = await db.select().from(uploads).where(eq(uploads.id, own!.pdfUploadId!))
		const ownText = await pdfText(await readStoredFile(ownPdf!.storageKey))
		expect(ownText).toContain('ARVE')
		expect(ownText).toContain('Kokku')
		expect(ownText).not.toMatch(/ARVE \/|Kokku \//)
	})

	test('cancelling the test payment leaves the workshop where it was', async () => {
		const workshop = await workshopWithBilling()
		const outcome = await subscribe(workshop.workshopId, pro.id)
		const paymentId = decodeId((outcome as { url: string }).url.split('/').pop())!
		await cancelTestPayment(workshop.workshopId, paymentId)
		expect((await activeOf(workshop.workshopId)).packageId).toBe(free.id)
		expect((await payTestPayment(workshop.workshopId, paymentId)).outcome).toBe('duplicate')
		expect(await invoicesOf(workshop.workshopId)).toHaveLength(0)
	})

	test('a payment is activated once, however often the provider confirms it', async () => {
		const workshop = await workshopWithBilling()
		const paymentId = await goPro(workshop)
		const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId))
		const again = await Promise.all([activatePayment('test', payment!.providerReference), activatePayment('test', payment!.providerReference)])
		expect(again.map((r) => r.outcome)).toEqual(['duplicate', 'duplicate'])
		expect(await invoicesOf(workshop.workshopId)).toHaveLength(1)
	})

	test('invoice numbers run without gaps, also when activations come at once', async () => {
		const [a, b] = await Promise.all([workshopWithBilling(), workshopWithBilling()])
		await Promise.all([goPro(a!), goPro(b!)])
		const numbers = (await db.select({ number: invoices.number }).from(invoices)).map((r) => r.number).sort((x, y) => x - y)
		expect(numbers[0]).toBe(1000)
		numbers.forEach((n, i) => expect(n).toBe(1000 + i))
	})
})

test('a period is one calendar month, the day kept where the month has it', () => {
	expect(addMonth(new Date('2026-01-15T10:00:00Z')).toISOString()).toBe('2026-02-15T10:00:00.000Z')
	expect(addMonth(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z')
	expect(addMonth(new Date('2026-12-31T23:30:00Z')).toISOString()).toBe('2027-01-31T23:30:00.000Z')
})

describe('offers per package', () => {
	test('the sixth offer in a month on the free package is refused with a clear message', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const workshop = await workshopWithBilling([refs.tyres])
		for (let n = 0; n < 5; n++) await makeOffer(workshop, await openRequest(customer.id, vehicleId, [refs.tyres]), offer(40 + n), null)
		const error = await makeOffer(workshop, await openRequest(customer.id, vehicleId, [refs.tyres]), offer(99), null).catch((e: unknown) => e)
		expect(error).toMatchObject({ key: 'workshop:offer.limitReached', params: { limit: 5 } })
		const { key, params } = error as DomainError
		expect(getFixedT('en', 'workshop')(key.split(':')[1]!, params)).toContain('allows 5 offers a month')
	})

	test('the paid package allows unlimited offers', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const workshop = await workshopWithBilling([refs.tyres])
		await goPro(workshop)
		for (let n = 0; n < 7; n++) await makeOffer(workshop, await openRequest(customer.id, vehicleId, [refs.tyres]), offer(30 + n), null)
		expect((await db.select({ n: count() }).from(offers).where(eq(offers.workshopId, workshop.workshopId)))[0]!.n).toBe(7)
	})
})

describe('renewal and expiry', () => {
	test('a due paid package is renewed through the test provider with a new invoice', async () => {
		const workshop = await workshopWithBilling()
		await goPro(workshop)
		const before = await activeOf(workshop.workshopId)
		const summary = await renewDueSubscriptions({ now: new Date(before.periodEnd!.getTime() + 1000) })
		expect(summary.renewed).toBeGreaterThanOrEqual(1)
		const after = await activeOf(workshop.workshopId)
		expect(after.id).toBe(before.id)
		expect(after.periodEnd!.getTime()).toBeGreaterThan(before.periodEnd!.getTime() + 27 * DAY)
		expect(await invoicesOf(workshop.workshopId)).toHaveLength(2)
	})

	test('a cancelled paid package stays until its period ends, then the free package', async () => {
		const workshop = await workshopWithBilling()
		await goPro(workshop)
		await cancelSubscription(workshop.workshopId)
		// Choosing the package again before the end takes the cancel back; cancelling again keeps it.
		expect(await subscribe(workshop.workshopId, pro.id)).toEqual({ kind: 'resumed' })
		expect((await activeOf(workshop.workshopId)).cancelAtPeriodEnd).toBe(false)
		expect(await subscribe(workshop.workshopId, free.id)).toMatchObject({ kind: 'freeAfterPeriod' })
		const paid = await activeOf(workshop.workshopId)
		expect(paid).toMatchObject({ packageId: pro.id, cancelAtPeriodEnd: true })
		// Not due yet: nothing happens.
		await renewDueSubscriptions({ now: new Date(paid.periodEnd!.getTime() - 1000) })
		expect((await activeOf(workshop.workshopId)).packageId).toBe(pro.id)

		await renewDueSubscriptions({ now: new Date(paid.periodEnd!.getTime() + 1000) })
		expect((await activeOf(workshop.workshopId)).packageId).toBe(free.id)
		expect(await rankOf(workshop.workshopId)).toBe(0)
		expect((await db.select().from(subscriptions).where(eq(subscriptions.id, paid.id)))[0]!.status).toBe('expired')
		const [note] = await db.select().from(notifications).where(eq(notifications.userId, workshop.userId))
		expect(note).toMatchObject({ messageKey: 'billing:notifications.ended', receivedId: paid.id })
		const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.to, `billing-${workshop.workshopId.slice(0, 8)}@example.com`))
		expect(mails.map((m) => m.subject)).toContain('Your paid package has ended')
		expect(await invoicesOf(workshop.workshopId)).toHaveLength(1)
	})

	test('a failed renewal returns the workshop to the free package', async () => {
		const workshop = await workshopWithBilling()
		await goPro(workshop)
		const paid = await activeOf(workshop.workshopId)
		const declining: PaymentProvider = {
			name: 'test',
			startCheckout: () => Promise.reject(new Error('unused')),
			renew: async () => ({ outcome: 'failed' }),
			cancel: async () => {},
			resume: async () => {},
			stop: async () => {},
			abandonCheckout: async () => {},
		}
		await renewDueSubscriptions({ now: new Date(paid.periodEnd!.getTime() + 1000), providerFor: () => declining })
		expect((await activeOf(workshop.workshopId)).packageId).toBe(free.id)
		const [note] = await db.select().from(notifications).where(eq(notifications.userId, workshop.userId))
		expect(note?.messageKey).toBe('billing:notifications.paymentFailed')
	})
})

describe('the Stripe webhook', () => {
	const stripe = new Stripe('sk_test_offline')
	let action: (args: { request: Request; params: object; context: object }) => Promise<Response>

	beforeAll(async () => {
		process.env.STRIPE_SECRET_KEY = 'sk_test_offline'
		process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
		resetEnvCache()
		action = (await import('~/routes/webhooks.stripe')).action as unknown as typeof action
	})

	/** A workshop with a Stripe Checkout session started (the provider stubbed: no network). */
	async function startStripeCheckout() {
		const workshop = await workshopWithBilling()
		const sessionId = `cs_test_${workshop.workshopId.slice(0, 8)}`
		const stub: PaymentProvider = {
			name: 'stripe',
			startCheckout: async () => ({ reference: sessionId, url: `https://checkout.stripe.com/c/pay/${sessionId}` }),
			renew: async () => ({ outcome: 'external' }),
			cancel: async () => {},
			resume: async () => {},
			stop: async () => {},
			abandonCheckout: async () => {},
		}
		expect((await subscribe(workshop.workshopId, pro.id, stub)).kind).toBe('checkout')
		return { workshop, sessionId }
	}

	const event = (type: string, object: Record<string, unknown>) =>
		JSON.stringify({ id: `evt_${Math.random().toString(36).slice(2)}`, object: 'event', type, data: { object } })

	const post = (payload: string, signature: string) =>
		action({
			request: new Request('http://localhost/webhooks/stripe', { method: 'POST', body: payload, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } }),
			params: {},
			context: {},
		})

	const signed = (payload: string, secret = WEBHOOK_SECRET) => post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret }))

	test('a signed checkout.session.completed activates once; a repeat does nothing', async () => {
		const { workshop, sessionId } = await startStripeCheckout()
		const payload = event('checkout.session.completed', { id: sessionId, object: 'checkout.session', payment_status: 'paid', subscription: 'sub_A1' })
		const first = await signed(payload)
		expect(first.status).toBe(200)
		expect(await first.json()).toMatchObject({ handled: 'activated' })
		const active = await activeOf(workshop.workshopId)
		expect(active).toMatchObject({ packageId: pro.id, provider: 'stripe', providerReference: 'sub_A1' })

		const second = await signed(payload)
		expect(await second.json()).toMatchObject({ handled: 'duplicate' })
		expect(await invoicesOf(workshop.workshopId)).toHaveLength(1)
		expect((await activeOf(workshop.workshopId)).periodEnd).toEqual(active.periodEnd)

		// Stripe's monthly charge: one month more, once.
		const renewal = event('invoice.paid', {
			id: 'in_A1_2',
			object: 'invoice',
			billing_reason: 'subscription_cycle',
			// Charged at an older price: the invoice states what was charged.
			amount_paid: 2480,
			parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_A1' } },
		})
		expect(await (await signed(renewal)).json()).toMatchObject({ handled: 'activated' })
		expect(await (await signed(renewal)).json()).toMatchObject({ handled: 'duplicate' })
		const both = await invoicesOf(workshop.workshopId)
		expect(both).toHaveLength(2)
		expect(both.map((invoice) => invoice.totalCents).sort()).toEqual([2480, 3596])
		expect(both.find((invoice) => invoice.totalCents === 2480)).toMatchObject({ netCents: 2000, vatCents: 480 })
		expect((await activeOf(workshop.workshopId)).periodEnd!.getTime()).toBeGreaterThan(active.periodEnd!.getTime() + 27 * DAY)
	})

	test('a newer checkout closes the older one at the provider; the old one cannot be activated', async () => {
		const workshop = await workshopWithBilling()
		const abandoned: string[] = []
		let n = 0
		const stub: PaymentProvider = {
			name: 'stripe',
			startCheckout: async () => ({ reference: `cs_test_${workshop.workshopId.slice(0, 8)}_${++n}`, url: 'https://checkout.stripe.com/c/pay/x' }),
			renew: async () => ({ outcome: 'external' }),
			cancel: async () => {},
			resume: async () => {},
			stop: async () => {},
			abandonCheckout: async (reference) => {
				abandoned.push(reference)
			},
		}
		await subscribe(workshop.workshopId, pro.id, stub)
		await subscribe(workshop.workshopId, pro.id, stub)
		const first = `cs_test_${workshop.workshopId.slice(0, 8)}_1`
		// The stub stands in for Stripe, so the registry's real provider is never asked.
		expect(abandoned).toEqual([first])
		expect((await activatePayment('stripe', first)).outcome).toBe('duplicate')
		expect((await activeOf(workshop.workshopId)).packageId).toBe(free.id)
	})

	test('a forged or altered webhook is refused and changes nothing', async () => {
		const { workshop, sessionId } = await startStripeCheckout()
		const payload = event('checkout.session.completed', { id: sessionId, object: 'checkout.session', payment_status: 'paid', subscription: 'sub_B1' })

		const wrongSecret = await signed(payload, 'whsec_not_ours')
		expect(wrongSecret.status).toBe(400)
		const noSignature = await post(payload, '')
		expect(noSignature.status).toBe(400)
		const other = event('checkout.session.completed', { id: 'cs_other', object: 'checkout.session', payment_status: 'paid' })
		const altered = await post(payload, stripe.webhooks.generateTestHeaderString({ payload: other, secret: WEBHOOK_SECRET }))
		expect(altered.status).toBe(400)

		expect((await activeOf(workshop.workshopId)).packageId).toBe(free.id)
		expect(await invoicesOf(workshop.workshopId)).toHaveLength(0)
		const [payment] = await db.select().from(payments).where(eq(payments.providerReference, sessionId))
		expect(payment!.status).toBe('pending')
	})
})
