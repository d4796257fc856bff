import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { getStripe, stripeConfigured } from '~/domain/payments.server'
import { activatePayment, paymentStatusOf } from '~/domain/subscription.server'
import { requireWorkshop } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * Where Stripe Checkout sends the workshop back. The webhook is what activates; this asks Stripe
 * about the session too, so a slow webhook does not leave the workshop waiting. Activation runs
 * once either way (docs/decisions/0060).
 */
export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const sessionId = new URL(request.url).searchParams.get('session_id')
	if (!stripeConfigured() || !sessionId || !/^cs_[A-Za-z0-9_]+$/.test(sessionId)) throw new Response('Not found', { status: 404 })
	// Only the workshop's own checkout; anything else is "not found", as is a session Stripe does not know.
	if (!(await paymentStatusOf(actor.workshopId, 'stripe', sessionId))) throw new Response('Not found', { status: 404 })
	const session = await getStripe()
		.checkout.sessions.retrieve(sessionId)
		.catch(() => null)
	if (!session) throw new Response('Not found', { status: 404 })
	if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') {
		const subscription = typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null)
		await activatePayment('stripe', session.id, { providerSubscriptionId: subscription })
		// Thanks only for a payment that is active: a replaced checkout paid late is not.
		if ((await paymentStatusOf(actor.workshopId, 'stripe', sessionId)) === 'paid') return redirect('/thank-you')
	}
	return redirectWithToast('/subscription', { type: 'info', key: 'billing:toast.paymentPending' }, { request })
}
