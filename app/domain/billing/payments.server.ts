import { randomUUID } from 'node:crypto'
import type Stripe from 'stripe'
import { getEnv } from '~/utils/env.server'
import { encodeId } from '~/utils/public-id'
import { lazily } from '~/utils/singleton.server'

/**
 * Paid packages are paid through one interface (docs/decisions/0060-payments.md):
 * - `stripe`: Stripe Checkout in subscription mode, when STRIPE_SECRET_KEY and
 *   STRIPE_WEBHOOK_SECRET are set. A signed webhook activates the subscription; Stripe charges
 *   the following months itself and reports each with an `invoice.paid` webhook.
 * - `test`: the built-in provider used otherwise. Its payment page (/subscription/test-payment/…)
 *   is clearly marked as a test, with pay and cancel buttons; its renewals always succeed unless
 *   the workshop cancelled.
 */
export type ProviderName = 'test' | 'stripe'

export type CheckoutInput = {
	paymentId: string
	subscriptionId: string
	packageName: string
	/** What the customer pays: net plus VAT. */
	amountCents: number
	currency: string
	customerEmail: string
}

export type RenewalResult =
	/** Charged now; the caller records the payment under this reference. */
	| { outcome: 'paid'; reference: string }
	| { outcome: 'failed' }
	/** The provider charges by itself and reports it by webhook; nothing to do now. */
	| { outcome: 'external' }

export interface PaymentProvider {
	readonly name: ProviderName
	/** Starts a payment: the provider's reference for it and the page the workshop goes to. */
	startCheckout(input: CheckoutInput): Promise<{ reference: string; url: string }>
	/** Charges the next period of an active subscription. */
	renew(input: { subscriptionReference: string | null; amountCents: number; currency: string }): Promise<RenewalResult>
	/** Stops future charges (the paid period runs to its end). */
	cancel(subscriptionReference: string | null): Promise<void>
	/** Takes a cancel back before the period ended: charges go on. */
	resume(subscriptionReference: string | null): Promise<void>
	/** Ends charges now: the subscription was ended on our side (expired, replaced). */
	stop(subscriptionReference: string | null): Promise<void>
	/** Makes a checkout that was replaced by a newer one unpayable. */
	abandonCheckout(reference: string): Promise<void>
}

export const testProvider: PaymentProvider = {
	name: 'test',
	async startCheckout(input) {
		return { reference: `test_${randomUUID()}`, url: `/subscription/test-payment/${encodeId(input.paymentId)}` }
	},
	async renew() {
		return { outcome: 'paid', reference: `test_renewal_${randomUUID()}` }
	},
	async cancel() {},
	async resume() {},
	async stop() {},
	async abandonCheckout() {},
}

const stripeClient = lazily(async () => {
	const { default: StripeClient } = await import('stripe')
	return new StripeClient(getEnv().STRIPE_SECRET_KEY!, { maxNetworkRetries: 2, timeout: 20_000 })
})

/** The official client; webhooks are verified with it too. Loaded when first asked for, not at start (decision 0094). */
export async function getStripe(): Promise<Stripe> {
	if (!getEnv().STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set')
	return stripeClient()
}

export const stripeProvider: PaymentProvider = {
	name: 'stripe',
	async startCheckout(input) {
		const { APP_URL } = getEnv()
		const session = await (await getStripe()).checkout.sessions.create({
			mode: 'subscription',
			customer_email: input.customerEmail,
			client_reference_id: input.paymentId,
			line_items: [
				{
					quantity: 1,
					price_data: {
						currency: input.currency.toLowerCase(),
						unit_amount: input.amountCents,
						recurring: { interval: 'month' },
						product_data: { name: input.packageName },
					},
				},
			],
			metadata: { paymentId: input.paymentId, subscriptionId: input.subscriptionId },
			subscription_data: { metadata: { subscriptionId: input.subscriptionId } },
			success_url: `${APP_URL}/subscription/stripe-return?session_id={CHECKOUT_SESSION_ID}`,
			cancel_url: `${APP_URL}/subscription`,
		})
		if (!session.url) throw new Error('Stripe returned no Checkout URL')
		return { reference: session.id, url: session.url }
	},
	async renew() {
		// Stripe charges a Checkout subscription every month and sends invoice.paid (handled by the webhook).
		return { outcome: 'external' }
	},
	async cancel(subscriptionReference) {
		if (subscriptionReference) await (await getStripe()).subscriptions.update(subscriptionReference, { cancel_at_period_end: true })
	},
	async stop(subscriptionReference) {
		if (!subscriptionReference) return
		const stripe = await getStripe()
		// Stripe may have ended it already (failed payments): cancelling twice is an error there.
		const subscription = await stripe.subscriptions.retrieve(subscriptionReference)
		if (subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired') await stripe.subscriptions.cancel(subscriptionReference)
	},
	async abandonCheckout(reference) {
		const stripe = await getStripe()
		const session = await stripe.checkout.sessions.retrieve(reference)
		if (session.status === 'open') await stripe.checkout.sessions.expire(reference)
	},
	async resume(subscriptionReference) {
		if (subscriptionReference) await (await getStripe()).subscriptions.update(subscriptionReference, { cancel_at_period_end: false })
	},
}

export function stripeConfigured() {
	const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } = getEnv()
	return Boolean(STRIPE_SECRET_KEY && STRIPE_WEBHOOK_SECRET)
}

/** The provider for new payments. */
export function currentProvider(): PaymentProvider {
	return stripeConfigured() ? stripeProvider : testProvider
}

/** The provider a stored subscription or payment was made with. */
export function providerNamed(name: string | null | undefined): PaymentProvider {
	return name === 'stripe' ? stripeProvider : testProvider
}
