import { type ActionFunctionArgs } from '@remix-run/node'
import { handleStripeWebhook } from '~/domain/stripe-webhook.server'

/** Stripe's signed calls (docs/decisions/0060-payments.md); the raw body is what is signed. */
export async function action({ request }: ActionFunctionArgs) {
	if (request.method !== 'POST') return Response.json({ error: 'method not allowed' }, { status: 405 })
	const result = await handleStripeWebhook(await request.text(), request.headers.get('stripe-signature'))
	return Response.json({ received: result.status === 200, handled: result.handled }, { status: result.status })
}

export async function loader() {
	return new Response('Not found', { status: 404 })
}
