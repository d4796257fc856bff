import { and, eq, lte, sql } from 'drizzle-orm'
import { packages, payments, subscriptions } from '~/db/schema'
import { getFixedT } from '~/i18n/i18n.server'
import { db, transaction, type DbOrTx } from '~/db/db.server'
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { letter } from '~/domain/messaging/email-templates.server'
import { sendEmail } from '~/domain/messaging/emails.server'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { lockWorkshop } from '~/domain/service-flow/move-locks.server'
import { providerNamed, type PaymentProvider } from './payments.server'
import { buyerOf, priceWithVat } from './invoices.server'
import { activateLocked, activatePayment, type ActivationOutcome, startFree } from './subscription.server'

/**
 * The month-by-month life of a paid subscription (docs/decisions/0060-payments.md): the renewal
 * job renews each one whose period ended through its provider, or returns it to the free package;
 * Stripe's own monthly charges are recorded and activated like any other payment.
 */

type Tx = DbOrTx

/** Stripe may report a renewal a little after the period ended; wait this long before expiring. */
const EXTERNAL_RENEWAL_GRACE_MS = 2 * 24 * 60 * 60 * 1000

export type RenewalSummary = { renewed: number; expired: number; waiting: number }

/**
 * The renewal job (app/jobs/schedule.server.ts, also `npm run jobs`): every active paid
 * subscription whose period has ended is renewed through its provider, or returns to the free
 * package when the workshop cancelled or the payment failed (with an e-mail and a notification).
 */
export async function renewDueSubscriptions(
	options: { now?: Date; providerFor?: (name: string | null) => PaymentProvider } = {},
): Promise<RenewalSummary> {
	const now = options.now ?? new Date()
	const providerFor = options.providerFor ?? providerNamed
	const due = await db
		.select({ id: subscriptions.id })
		.from(subscriptions)
		.innerJoin(packages, eq(packages.id, subscriptions.packageId))
		.where(and(eq(subscriptions.status, 'active'), lte(subscriptions.periodEnd, now), sql`${packages.priceCents} > 0`))
		.limit(200)
	const summary: RenewalSummary = { renewed: 0, expired: 0, waiting: 0 }
	for (const { id } of due) {
		try {
			const result = await renewOne(id, now, providerFor)
			summary[result]++
		} catch (error) {
			logger.error('subscription renewal failed', { subscriptionId: id, err: error })
		}
	}
	return summary
}

async function renewOne(subscriptionId: string, now: Date, providerFor: (name: string | null) => PaymentProvider) {
	// No retry: the provider may charge the card inside, and a second run would charge it twice.
	return transaction(async (tx): Promise<keyof RenewalSummary> => {
		const [owner] = await tx.select({ workshopId: subscriptions.workshopId }).from(subscriptions).where(eq(subscriptions.id, subscriptionId))
		if (!owner) return 'waiting'
		await lockWorkshop(tx, owner.workshopId)
		const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update')
		if (!sub || sub.status !== 'active' || !sub.periodEnd || sub.periodEnd > now) return 'waiting'
		const [pkg] = await tx.select().from(packages).where(eq(packages.id, sub.packageId))
		if (!pkg) return 'waiting'
		if (sub.cancelAtPeriodEnd || !pkg.active) {
			await expireToFree(tx, sub, 'cancelled')
			return 'expired'
		}
		const provider = providerFor(sub.provider)
		const price = await priceWithVat(tx, pkg.priceCents)
		const result = await provider.renew({ subscriptionReference: sub.providerReference, amountCents: price.totalCents, currency: pkg.currency })
		if (result.outcome === 'external') {
			if (now.getTime() - sub.periodEnd.getTime() < EXTERNAL_RENEWAL_GRACE_MS) return 'waiting'
			await expireToFree(tx, sub, 'failed')
			return 'expired'
		}
		if (result.outcome === 'failed') {
			await expireToFree(tx, sub, 'failed')
			return 'expired'
		}
		const [payment] = await tx
			.insert(payments)
			.values({
				workshopId: sub.workshopId,
				subscriptionId: sub.id,
				packageId: pkg.id,
				provider: provider.name,
				providerReference: result.reference,
				amountCents: price.totalCents,
				currency: pkg.currency,
			})
			.returning()
		await activateLocked(tx, payment!, {})
		return 'renewed'
	}, { retry: false })
}

async function expireToFree(tx: Tx, sub: typeof subscriptions.$inferSelect, reason: 'cancelled' | 'failed') {
	await startFree(tx, sub.workshopId, undefined, 'expired')
	const buyer = await buyerOf(tx, sub.workshopId)
	const key = reason === 'cancelled' ? 'ended' : 'paymentFailed'
	await notify(tx, { userId: buyer.userId, type: NotificationType.dialog, messageKey: `billing:notifications.${key}`, receivedId: sub.id })
	const t = getFixedT(buyer.language, 'billing')
	const subject = t(`email.${key}.subject`)
	const text = t(`email.${key}.text`, { company: buyer.companyName, url: `${getEnv().APP_URL}/subscription?lng=${buyer.language}` })
	await sendEmail(tx, { to: buyer.billingEmail ?? buyer.email, language: buyer.language, subject, content: letter(subject, text) })
}

/**
 * Stripe charged a Checkout subscription for another month (invoice.paid, billing_reason
 * subscription_cycle): recorded as a payment keyed by the Stripe invoice id and activated like
 * any other, so a repeated webhook changes nothing.
 */
export async function recordStripeRenewal(stripeSubscriptionId: string, stripeInvoiceId: string, amountCents: number): Promise<ActivationOutcome> {
	const [sub] = await db
		.select()
		.from(subscriptions)
		.where(and(eq(subscriptions.provider, 'stripe'), eq(subscriptions.providerReference, stripeSubscriptionId), eq(subscriptions.status, 'active')))
	if (!sub) {
		// Charged for a subscription we no longer run: someone must refund it.
		logger.error('Stripe charged a subscription that is not active here', { stripeSubscriptionId, stripeInvoiceId, amountCents })
		return { outcome: 'unknown' }
	}
	await db
		.insert(payments)
		.values({
			workshopId: sub.workshopId,
			subscriptionId: sub.id,
			packageId: sub.packageId,
			provider: 'stripe',
			providerReference: stripeInvoiceId,
			amountCents,
		})
		.onConflictDoNothing()
	return activatePayment('stripe', stripeInvoiceId)
}
