import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { handleStripeWebhook } from '~/domain/billing/stripe-webhook.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { readText } from '~/uploads/multipart.server'

/** Stripe's signed calls (docs/decisions/0060-payments.md); the raw body is what is signed. */
export async function action({ request }: ActionFunctionArgs) {
	if (request.method !== 'POST') return methodNotAllowed(request, 'POST')
	// Stripe's events are a few kilobytes; a larger body is no event of theirs.
	const result = await handleStripeWebhook(await readText(request, 512 * 1024), request.headers.get('stripe-signature'))
	return Response.json({ received: result.status === 200, handled: result.handled }, { status: result.status })
}

export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')
