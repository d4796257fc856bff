import { randomUUID } from 'node:crypto'
import { and, eq, inArray, ne } from 'drizzle-orm'
import { packages, payments, subscriptions, workshops } from '~/db/schema'
import { db, type DbOrTx, transaction } from '~/db/db.server'
import { logger } from '~/utils/logger.server'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { lockWorkshop } from '~/domain/service-flow/move-locks.server'
import { currentProvider, getStripe, providerNamed, stripeConfigured, type PaymentProvider, type ProviderName } from './payments.server'
import { issueInvoice, priceWithVat } from './invoices.server'
import { BILLING_EMAIL_REQUIRED, canSubscribeTo, type BillingDetails } from './subscription'

/**
 * A workshop's subscription (spec §1, §3, §8; docs/decisions/0060-payments.md, 0061-invoices.md).
 *
 *   free package     active at once, no end (registration starts every workshop on it)
 *   paid package     pending_payment → active for one month when its payment is activated,
 *                    then renewed month by month, or expired back to the free package when a
 *                    renewal fails or the workshop cancelled (it stays until its period ends)
 *
 * A payment is activated once, under a row lock on the payment keyed by the provider's reference
 * (unique), so a provider calling twice changes nothing the second time. Here: subscribing,
 * cancelling, the test provider's page, the return from Stripe and activation; the monthly renewal
 * is renewals.server.ts, the invoice invoices.server.ts, what /subscription shows subscription-page.server.ts.
 */

type Tx = DbOrTx

/** One calendar month later (31 January → 28/29 February), in UTC. */
export function addMonth(date: Date) {
	const next = new Date(date)
	const day = next.getUTCDate()
	next.setUTCDate(1)
	next.setUTCMonth(next.getUTCMonth() + 1)
	const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate()
	next.setUTCDate(Math.min(day, lastDay))
	return next
}

/** The billing details form: the billing e-mail, the VAT number the invoices print, e-invoices wanted or not. */
export async function saveBillingDetails(workshopId: string, details: BillingDetails) {
	await db
		.update(workshops)
		.set({ billingEmail: details.billingEmail, vatNumber: details.vatNumber, wantsEInvoice: details.wantsEInvoice })
		.where(eq(workshops.id, workshopId))
}

export type SubscribeOutcome =
	| { kind: 'free' }
	/** Was on a paid package: it runs to the end of its period, then the free package. */
	| { kind: 'freeAfterPeriod'; periodEnd: Date }
	/** Was cancelled and chose the same package again: it simply goes on. */
	| { kind: 'resumed' }
	| { kind: 'checkout'; url: string }

/** The workshop chose a package on /subscription. */
export async function subscribe(workshopId: string, packageId: string, provider: PaymentProvider = currentProvider()): Promise<SubscribeOutcome> {
	const [row] = await db
		.select({ billingEmail: workshops.billingEmail })
		.from(workshops)
		.where(eq(workshops.id, workshopId))
	if (!row) throw notFound()
	// A refusal about the billing e-mail field: the page shows it there, not above the packages.
	if (!row.billingEmail) throw new FieldError('billingEmail', BILLING_EMAIL_REQUIRED)
	const [pkg] = await db.select().from(packages).where(and(eq(packages.id, packageId), eq(packages.active, true)))
	if (!pkg) throw notFound()
	const billingEmail = row.billingEmail

	if (pkg.priceCents === 0) return subscribeFree(workshopId, pkg.id)

	const [current] = await db
		.select()
		.from(subscriptions)
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
	if (current?.packageId === pkg.id) {
		if (!canSubscribeTo(current, pkg.id)) throw new DomainError('billing:errors.alreadySubscribed', 409)
		// Under the row lock, and only while the paid period runs: the renewal job may be ending it.
		const resumed = await transaction(async (tx) => {
			await lockWorkshop(tx, workshopId)
			const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, current.id)).for('update')
			if (!locked || locked.status !== 'active' || !locked.cancelAtPeriodEnd || !locked.periodEnd || locked.periodEnd <= new Date()) return false
			if (locked.provider) await providerNamed(locked.provider).resume(locked.providerReference)
			await tx.update(subscriptions).set({ cancelAtPeriodEnd: false }).where(eq(subscriptions.id, locked.id))
			return true
		})
		if (resumed) return { kind: 'resumed' }
	}

	const price = await priceWithVat(db, pkg.priceCents)
	const subscriptionId = randomUUID()
	const paymentId = randomUUID()
	// The provider is asked first (Stripe is a network call, kept out of the transaction).
	const checkout = await provider.startCheckout({
		paymentId,
		subscriptionId,
		packageName: pkg.nameEn,
		amountCents: price.totalCents,
		currency: pkg.currency,
		customerEmail: billingEmail,
	})
	const dropped = await transaction(async (tx) => {
		await lockWorkshop(tx, workshopId)
		// An earlier checkout that was never paid is dropped: only the newest one can be activated.
		const stale = await tx
			.update(subscriptions)
			.set({ status: 'expired' })
			.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'pending_payment')))
			.returning({ id: subscriptions.id })
		let droppedPayments: Array<{ provider: string; reference: string }> = []
		if (stale.length) {
			droppedPayments = await tx
				.update(payments)
				.set({ status: 'cancelled' })
				.where(and(inArray(payments.subscriptionId, stale.map((s) => s.id)), eq(payments.status, 'pending')))
				.returning({ provider: payments.provider, reference: payments.providerReference })
		}
		await tx.insert(subscriptions).values({ id: subscriptionId, workshopId, packageId: pkg.id, status: 'pending_payment', provider: provider.name })
		await tx.insert(payments).values({
			id: paymentId,
			workshopId,
			subscriptionId,
			packageId: pkg.id,
			provider: provider.name,
			providerReference: checkout.reference,
			amountCents: price.totalCents,
			currency: pkg.currency,
		})
		return droppedPayments
	})
	// The dropped checkouts are closed at the provider too, so an old tab cannot pay for nothing.
	for (const payment of dropped) {
		await (payment.provider === provider.name ? provider : providerNamed(payment.provider))
			.abandonCheckout(payment.reference)
			.catch((error: unknown) => logger.warn('could not close a replaced checkout', { reference: payment.reference, err: error }))
	}
	return { kind: 'checkout', url: checkout.url }
}

/** The workshop locked, then its active subscription (with its package's price), if any, locked too. */
async function lockActiveSubscription(tx: Tx, workshopId: string) {
	await lockWorkshop(tx, workshopId)
	const [current] = await tx
		.select({ sub: subscriptions, price: packages.priceCents })
		.from(subscriptions)
		.innerJoin(packages, eq(packages.id, subscriptions.packageId))
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
		.for('update', { of: subscriptions })
	return current
}

async function subscribeFree(workshopId: string, freePackageId: string): Promise<SubscribeOutcome> {
	return transaction(async (tx) => {
		const current = await lockActiveSubscription(tx, workshopId)
		if (current && current.price > 0 && current.sub.periodEnd && current.sub.periodEnd > new Date()) {
			// Cancelling keeps the paid package to the end of what was paid (spec §1).
			await cancelActive(tx, current.sub)
			return { kind: 'freeAfterPeriod', periodEnd: current.sub.periodEnd }
		}
		if (current?.sub.packageId === freePackageId) return { kind: 'free' }
		await startFree(tx, workshopId, freePackageId)
		return { kind: 'free' }
	})
}

/** Moves the workshop onto the free package now (the active subscription, if any, is replaced). */
export async function startFree(tx: Tx, workshopId: string, freePackageId?: string, endedStatus: 'replaced' | 'expired' = 'replaced') {
	const freeId = freePackageId ?? (await tx.select({ id: packages.id }).from(packages).where(eq(packages.code, 'free')))[0]?.id
	const ended = await tx
		.update(subscriptions)
		.set({ status: endedStatus })
		.where(and(eq(subscriptions.workshopId, workshopId), eq(subscriptions.status, 'active')))
		.returning()
	await stopProviderBilling(ended)
	if (freeId) await tx.insert(subscriptions).values({ workshopId, packageId: freeId, status: 'active', periodStart: new Date() })
	await tx.update(workshops).set({ packageRank: 0 }).where(eq(workshops.id, workshopId))
}

/**
 * A paid subscription that ends on our side (expired, failed, replaced) must stop charging at the
 * provider as well. Inside the transaction: if the provider cannot be told, nothing is ended and
 * the renewal job tries again.
 */
async function stopProviderBilling(ended: Array<typeof subscriptions.$inferSelect>) {
	for (const sub of ended) {
		// A cancelled one was told already and ends by itself at the provider.
		if (sub.provider && sub.providerReference && !sub.cancelAtPeriodEnd) await providerNamed(sub.provider).stop(sub.providerReference)
	}
}

async function cancelActive(tx: Tx, sub: typeof subscriptions.$inferSelect) {
	await tx.update(subscriptions).set({ cancelAtPeriodEnd: true }).where(eq(subscriptions.id, sub.id))
	if (sub.provider) await providerNamed(sub.provider).cancel(sub.providerReference)
}

/** "Cancel" on /subscription: the paid package stays until its period ends. */
export async function cancelSubscription(workshopId: string) {
	await transaction(async (tx) => {
		const current = await lockActiveSubscription(tx, workshopId)
		if (!current || current.price === 0) throw new DomainError('billing:errors.nothingToCancel', 409)
		if (!current.sub.cancelAtPeriodEnd) await cancelActive(tx, current.sub)
	})
}

/**
 * A deleted workshop account (privacy/account-deletion.server.ts) is never charged again: its paid
 * package, if any, ends with the period already paid. In the caller's transaction.
 */
export async function stopRenewals(tx: Tx, workshopId: string) {
	const current = await lockActiveSubscription(tx, workshopId)
	if (current && current.price > 0 && !current.sub.cancelAtPeriodEnd) await cancelActive(tx, current.sub)
}

export async function findPendingTestPayment(workshopId: string, paymentId: string) {
	const [row] = await db
		.select({ payment: payments, pkg: packages })
		.from(payments)
		.innerJoin(packages, eq(packages.id, payments.packageId))
		.where(and(eq(payments.id, paymentId), eq(payments.workshopId, workshopId), eq(payments.provider, 'test')))
	// `open`: it can still be paid or cancelled; `paid`: it went through.
	return row ? { ...row, open: row.payment.status === 'pending', paid: row.payment.status === 'paid' } : null
}

/** The status of one of the workshop's payments by the provider's reference (null: not theirs, or none). */
async function paymentStatusOf(workshopId: string, provider: ProviderName, reference: string) {
	const [row] = await db
		.select({ status: payments.status })
		.from(payments)
		.where(and(eq(payments.workshopId, workshopId), eq(payments.provider, provider), eq(payments.providerReference, reference)))
	return row?.status ?? null
}

/**
 * The workshop is back from Stripe Checkout. The webhook is what activates; this asks Stripe about
 * the session too, so a slow webhook does not leave the workshop waiting. Activation runs once
 * either way (docs/decisions/0060). 'unknown': not the workshop's checkout, or one Stripe does not
 * know; 'paid': active now; 'pending': not (yet) paid, or a replaced checkout paid late.
 */
export async function settleStripeReturn(workshopId: string, sessionId: string): Promise<'unknown' | 'paid' | 'pending'> {
	if (!stripeConfigured() || !/^cs_[A-Za-z0-9_]+$/.test(sessionId)) return 'unknown'
	if (!(await paymentStatusOf(workshopId, 'stripe', sessionId))) return 'unknown'
	const session = await (await getStripe()).checkout.sessions
		.retrieve(sessionId)
		.catch(() => null)
	if (!session) return 'unknown'
	if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') {
		const subscription = typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null)
		await activatePayment('stripe', session.id, { providerSubscriptionId: subscription })
		if ((await paymentStatusOf(workshopId, 'stripe', sessionId)) === 'paid') return 'paid'
	}
	return 'pending'
}

/** "Pay" on the test payment page: the same activation a provider's callback runs. */
export async function payTestPayment(workshopId: string, paymentId: string) {
	const row = await findPendingTestPayment(workshopId, paymentId)
	if (!row) throw notFound()
	return activatePayment('test', row.payment.providerReference)
}

/** "Cancel" on the test payment page: the payment and its pending subscription are dropped. */
export async function cancelTestPayment(workshopId: string, paymentId: string) {
	await transaction(async (tx) => {
		await lockWorkshop(tx, workshopId)
		const [payment] = await tx
			.select()
			.from(payments)
			.where(and(eq(payments.id, paymentId), eq(payments.workshopId, workshopId), eq(payments.provider, 'test')))
			.for('update')
		if (!payment) throw notFound()
		if (payment.status !== 'pending') return
		await tx.update(payments).set({ status: 'cancelled' }).where(eq(payments.id, payment.id))
		await tx
			.update(subscriptions)
			.set({ status: 'expired' })
			.where(and(eq(subscriptions.id, payment.subscriptionId), eq(subscriptions.status, 'pending_payment')))
	})
}

export type ActivationOutcome =
	| { outcome: 'activated'; paymentId: string; invoiceId: string }
	/** Already activated (or cancelled) before: nothing changed. */
	| { outcome: 'duplicate'; paymentId: string }
	| { outcome: 'unknown' }

/**
 * A provider confirmed a payment: the subscription becomes active for a month (or a month
 * longer, for a renewal), the invoice is made and e-mailed. Runs once per payment.
 */
export async function activatePayment(
	provider: ProviderName,
	reference: string,
	options: { providerSubscriptionId?: string | null } = {},
): Promise<ActivationOutcome> {
	return transaction(async (tx) => {
		const [owner] = await tx
			.select({ workshopId: payments.workshopId })
			.from(payments)
			.where(and(eq(payments.provider, provider), eq(payments.providerReference, reference)))
		if (!owner) return { outcome: 'unknown' }
		await lockWorkshop(tx, owner.workshopId)
		const [payment] = await tx
			.select()
			.from(payments)
			.where(and(eq(payments.provider, provider), eq(payments.providerReference, reference)))
			.for('update')
		if (!payment) return { outcome: 'unknown' }
		if (payment.status !== 'pending') return { outcome: 'duplicate', paymentId: payment.id }
		return activateLocked(tx, payment, options)
	})
}

export async function activateLocked(
	tx: Tx,
	payment: typeof payments.$inferSelect,
	options: { providerSubscriptionId?: string | null },
): Promise<ActivationOutcome> {
	// The caller holds the workshop's lock (taken first, as in every billing move).
	const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, payment.subscriptionId)).for('update')
	const [pkg] = await tx.select().from(packages).where(eq(packages.id, payment.packageId))
	if (!sub || !pkg) throw new Error(`payment ${payment.id} has no subscription or package`)
	const now = new Date()
	let periodStart: Date
	if (sub.status === 'active') {
		// A renewal: the next month follows the paid one without a gap.
		periodStart = sub.periodEnd && sub.periodEnd > now ? sub.periodEnd : (sub.periodEnd ?? now)
		const periodEnd = addMonth(periodStart)
		await tx.update(subscriptions).set({ periodEnd }).where(eq(subscriptions.id, sub.id))
	} else {
		periodStart = now
		const replaced = await tx
			.update(subscriptions)
			.set({ status: 'replaced' })
			.where(and(eq(subscriptions.workshopId, payment.workshopId), eq(subscriptions.status, 'active'), ne(subscriptions.id, sub.id)))
			.returning()
		await stopProviderBilling(replaced)
		await tx
			.update(subscriptions)
			.set({
				status: 'active',
				periodStart,
				periodEnd: addMonth(periodStart),
				cancelAtPeriodEnd: false,
				provider: payment.provider,
				providerReference: options.providerSubscriptionId ?? sub.providerReference,
			})
			.where(eq(subscriptions.id, sub.id))
	}
	await tx.update(payments).set({ status: 'paid', paidAt: now }).where(eq(payments.id, payment.id))
	await tx
		.update(workshops)
		.set({ packageRank: pkg.featured ? 1 : 0 })
		.where(eq(workshops.id, payment.workshopId))
	const invoiceId = await issueInvoice(tx, payment, pkg, periodStart, addMonth(periodStart))
	return { outcome: 'activated', paymentId: payment.id, invoiceId }
}
