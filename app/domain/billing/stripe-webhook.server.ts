import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { getStripe, stripeConfigured } from './payments.server'
import { recordStripeRenewal } from './renewals.server'
import { activatePayment } from './subscription.server'

export type WebhookResult = { status: 200 | 400 | 404; handled: string }

type StripeObject = Record<string, unknown>
const idOf = (value: unknown) => (typeof value === 'string' ? value : value && typeof value === 'object' && 'id' in value ? String(value.id) : null)

/**
 * POST /webhooks/stripe. The signature is checked with the official package before anything is
 * read (a forged or altered call gets 400 and changes nothing); a repeated event is harmless
 * because activation is keyed on the provider's reference.
 * - checkout.session.completed (paid): activates the subscription the Checkout session was for.
 * - invoice.paid for a later month (billing_reason subscription_cycle): one month more.
 * Everything else is acknowledged and ignored.
 */
export async function handleStripeWebhook(rawBody: string, signature: string | null): Promise<WebhookResult> {
	if (!stripeConfigured()) return { status: 404, handled: 'not configured' }
	const stripe = await getStripe()
	let event: { id: string; type: string; data: { object: StripeObject } }
	try {
		event = stripe.webhooks.constructEvent(rawBody, signature ?? '', getEnv().STRIPE_WEBHOOK_SECRET!) as unknown as typeof event
	} catch (error) {
		logger.warn('stripe webhook refused', { error: error instanceof Error ? error.message : String(error) })
		return { status: 400, handled: 'bad signature' }
	}
	const object = event.data.object
	if (
		(event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') &&
		(object.payment_status === 'paid' || object.payment_status === 'no_payment_required')
	) {
		const result = await activatePayment('stripe', String(object.id), { providerSubscriptionId: idOf(object.subscription) })
		logger.info('stripe checkout', { event: event.id, outcome: result.outcome })
		return { status: 200, handled: result.outcome }
	}
	if (event.type === 'invoice.paid' && object.billing_reason === 'subscription_cycle') {
		const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined
		const subscriptionId = idOf(parent?.subscription_details?.subscription) ?? idOf(object.subscription)
		if (!subscriptionId) return { status: 200, handled: 'unknown' }
		const result = await recordStripeRenewal(subscriptionId, String(object.id), Number(object.amount_paid ?? 0))
		logger.info('stripe renewal', { event: event.id, outcome: result.outcome })
		return { status: 200, handled: result.outcome }
	}
	return { status: 200, handled: 'ignored' }
}
